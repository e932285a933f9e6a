// HLSL layer norm with a groupshared reduction, one group per row, sizes in a push cbuffer
#define GROUP 64
struct Params { uint Cols; float Eps; };
[[vk::push_constant]] ConstantBuffer<Params> params;
[[vk::binding(0)]] StructuredBuffer<float> X;
[[vk::binding(1)]] StructuredBuffer<float> Gamma;
[[vk::binding(2)]] StructuredBuffer<float> Beta;
[[vk::binding(3)]] RWStructuredBuffer<float> Y;
groupshared float partial[GROUP];

float GroupSum(uint tid, float v) {
    partial[tid] = v;
    GroupMemoryBarrierWithGroupSync();
    [unroll] for (uint s = GROUP / 2; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        GroupMemoryBarrierWithGroupSync();
    }
    float total = partial[0];
    GroupMemoryBarrierWithGroupSync();
    return total;
}

[numthreads(GROUP, 1, 1)]
void main(uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID) {
    uint base = gid.x * params.Cols;
    float s = 0;
    for (uint c = tid.x; c < params.Cols; c += GROUP) s += X[base + c];
    float mean = GroupSum(tid.x, s) / params.Cols;
    float q = 0;
    for (uint c2 = tid.x; c2 < params.Cols; c2 += GROUP) { float d = X[base + c2] - mean; q += d * d; }
    float rstd = rsqrt(GroupSum(tid.x, q) / params.Cols + params.Eps);
    for (uint c3 = tid.x; c3 < params.Cols; c3 += GROUP)
        Y[base + c3] = (X[base + c3] - mean) * rstd * Gamma[c3] + Beta[c3];
}
