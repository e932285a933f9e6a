// HLSL push constants as a ConstantBuffer.
struct Constants { float scale; float bias; };
[[vk::push_constant]] ConstantBuffer<Constants> constants;
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
    output[dtid.x] = input[dtid.x] * constants.scale + constants.bias;
}
