#version 450
#extension GL_EXT_control_flow_attributes : enable
// ggml style q8_0 blocks: a float16 scale and 32 int8 quants per block, dequantized to float
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require

#define QUANT_K 32
struct block_q8_0
{
    float16_t d;
    int8_t qs[32];
};

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

layout (binding = 0) readonly buffer A {block_q8_0 data_a[];};
layout (binding = 1) writeonly buffer D {float data_b[];};

layout (push_constant) uniform parameter { uint M; uint K; uint stride_a; uint stride_b; uint nel; } p;

void main() {
    const uint i = gl_GlobalInvocationID.x * 4;
    if (i >= p.nel) {
        return;
    }
    const uint ib = i / QUANT_K;
    const uint iqs = i % QUANT_K;
    const float d = float(data_a[ib].d);
    [[unroll]] for (uint l = 0; l < 4; ++l) {
        data_b[i + l] = d * float(data_a[ib].qs[iqs + l]);
    }
}
