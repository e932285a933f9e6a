// HLSL: a groupshared tree reduction, one sum per group of 128.
StructuredBuffer<float> values : register(t0);
RWStructuredBuffer<float> sums : register(u1);
groupshared float cache[128];
[numthreads(128, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint3 gid : SV_GroupID) {
    cache[gi] = values[dtid.x];
    GroupMemoryBarrierWithGroupSync();
    [unroll] for (uint s = 64; s > 0; s >>= 1) {
        if (gi < s) cache[gi] += cache[gi + s];
        GroupMemoryBarrierWithGroupSync();
    }
    if (gi == 0) sums[gid.x] = cache[0];
}
