// One group per row of 256: SV_GroupIndex strides over the row, a groupshared tree
// reduction gives the row's sum of squares.
StructuredBuffer<float> x : register(t0);
RWStructuredBuffer<float> sumsq : register(u1);
groupshared float partial[64];
[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex, uint3 group : SV_GroupID) {
    float s = 0;
    for (uint k = gi; k < 256; k += 64) {
        float v = x[group.x * 256 + k];
        s += v * v;
    }
    partial[gi] = s;
    GroupMemoryBarrierWithGroupSync();
    for (uint stride = 32; stride > 0; stride >>= 1) {
        if (gi < stride) partial[gi] += partial[gi + stride];
        GroupMemoryBarrierWithGroupSync();
    }
    if (gi == 0) sumsq[group.x] = partial[0];
}
