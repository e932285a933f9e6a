#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
// int8 x int8 matrix-vector product, int32 accumulation, requantised to int8 with a
// per-layer multiplier and zero point from push constants (96 x 64 weights).
layout(local_size_x = 32) in;
layout(push_constant) uniform Quant { float multiplier; int zero_point; } q;
layout(binding = 0) readonly buffer Weights { int8_t w[]; };
layout(binding = 1) readonly buffer Activations { int8_t act[]; };
layout(binding = 2) writeonly buffer Out { int8_t y[]; };
void main() {
    uint row = gl_GlobalInvocationID.x;
    int acc = 0;
    for (uint k = 0u; k < 64u; ++k)
        acc += int(w[row * 64u + k]) * int(act[k]);
    int scaled = int(round(float(acc) * q.multiplier)) + q.zero_point;
    y[row] = int8_t(clamp(scaled, -128, 127));
}
