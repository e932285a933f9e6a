// int8 in, int8 out: r = clamp(q * multiplier + offset, -128, 127), the two factors in
// push constants (the converter drops push_constants: `run --push-constants` supplies them).
#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { int8_t q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { int8_t r[]; };
layout(push_constant) uniform Params { int multiplier; int offset; } params;
void main() {
    uint i = gl_GlobalInvocationID.x;
    r[i] = int8_t(clamp(int(q[i]) * params.multiplier + params.offset, -128, 127));
}
