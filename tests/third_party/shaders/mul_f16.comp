#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// float16 multiply-add.
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer A { float16_t a[]; };
layout(binding = 1) writeonly buffer C { float16_t c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    c[i] = a[i] * float16_t(2.0) + float16_t(0.25);
}
