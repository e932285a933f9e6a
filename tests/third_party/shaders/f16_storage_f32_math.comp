#version 450
#extension GL_EXT_shader_16bit_storage : require
// float16 in memory, float32 arithmetic: only 16-bit storage is required.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { f16vec2 x[]; };
layout(binding = 1) writeonly buffer Out { f16vec2 y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 v = vec2(x[i]);
    y[i] = f16vec2(sqrt(v * v + 1.0));
}
