// A workgroup-wide exclusive scan of counts (the offsets of a compaction), built from
// WavePrefixSum within each wave and the waves' totals in groupshared memory: the result
// does not depend on the wave size.
StructuredBuffer<uint> counts : register(t0);
RWStructuredBuffer<uint> offsets : register(u1);
groupshared uint waveTotals[64];
[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
    uint v = counts[dtid.x];
    uint lanes = WaveGetLaneCount();
    uint wave = gi / lanes;
    uint inWave = WavePrefixSum(v);
    if (WaveGetLaneIndex() == lanes - 1) waveTotals[wave] = inWave + v;
    GroupMemoryBarrierWithGroupSync();
    uint before = 0;
    for (uint w = 0; w < wave; ++w) before += waveTotals[w];
    offsets[dtid.x] = before + inWave;
}
