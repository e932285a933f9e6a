// HLSL wave intrinsics: WaveActiveSum per wave, the waves' sums added atomically in
// groupshared memory, one result per group of 64.
StructuredBuffer<uint> values : register(t0);
RWStructuredBuffer<uint> sums : register(u1);
groupshared uint total;
[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint3 gid : SV_GroupID) {
    if (gi == 0) total = 0;
    GroupMemoryBarrierWithGroupSync();
    uint s = WaveActiveSum(values[dtid.x]);
    if (WaveIsFirstLane()) InterlockedAdd(total, s);
    GroupMemoryBarrierWithGroupSync();
    if (gi == 0) sums[gid.x] = total;
}
