#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
// int16 storage and arithmetic in GLSL: a fixed-point multiply with a shift.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { int16_t q[]; };
layout(binding = 1) writeonly buffer Out { int16_t r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    r[i] = int16_t((int(q[i]) * 3) >> 1);
}
