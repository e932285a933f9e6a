// HLSL: an 8 x 8 thread group over a 2-D image held in a buffer, parameters in a
// cbuffer that is a push-constant block.
[[vk::push_constant]]
cbuffer Params {
    float gain;
    float offset;
    uint width;
    uint height;
};
StructuredBuffer<float> src : register(t0);
RWStructuredBuffer<float> dst : register(u1);
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= width || id.y >= height) return;
    uint i = id.y * width + id.x;
    dst[i] = src[i] * gain + offset;
}
