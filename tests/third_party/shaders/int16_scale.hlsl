// HLSL explicit 16-bit integers (Shader Model 6.2).
StructuredBuffer<int16_t> input : register(t0);
RWStructuredBuffer<int16_t> output : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    output[id.x] = input[id.x] * (int16_t)3;
}
