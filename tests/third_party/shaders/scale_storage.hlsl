// HLSL: structured buffers, SV_DispatchThreadID.
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
[numthreads(64, 1, 1)]
void CSMain(uint3 dtid : SV_DispatchThreadID) {
    output[dtid.x] = input[dtid.x] * 0.5 + 2.0;
}
