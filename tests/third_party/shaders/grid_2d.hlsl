// HLSL: a 2-D dispatch over a 32 x 32 row-major buffer.
StructuredBuffer<float> src : register(t0);
RWStructuredBuffer<float> dst : register(u1);
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.y * 32 + id.x;
    dst[i] = src[i] * src[i];
}
