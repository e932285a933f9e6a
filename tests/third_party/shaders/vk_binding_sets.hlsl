// Explicit Vulkan bindings and sets: [[vk::binding(N, S)]] on each resource.
[[vk::binding(0, 0)]] StructuredBuffer<float> a;
[[vk::binding(2, 1)]] StructuredBuffer<float> b;
[[vk::binding(1, 0)]] RWStructuredBuffer<float> c;
[numthreads(128, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
    c[tid.x] = a[tid.x] * b[tid.x];
}
