// DirectML-like HLSL elementwise: float4 structured buffers, push constants through a cbuffer
struct Constants { uint ElementCount; float Scale; };
[[vk::push_constant]] ConstantBuffer<Constants> constants;
[[vk::binding(0)]] StructuredBuffer<float4> Input : register(t0);
[[vk::binding(1)]] RWStructuredBuffer<float4> Output : register(u0);

float4 Gelu(float4 x) {
    return 0.5f * x * (1.0f + tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
}

[numthreads(64, 1, 1)]
void CSMain(uint3 dtid : SV_DispatchThreadID) {
    if (dtid.x < constants.ElementCount) {
        Output[dtid.x] = Gelu(Input[dtid.x]) * constants.Scale;
    }
}
