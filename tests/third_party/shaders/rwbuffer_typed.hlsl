// HLSL typed buffers: Buffer<float4> in, RWBuffer<float4> out (texel buffers).
Buffer<float4> src : register(t0);
RWBuffer<float4> dst : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    dst[id.x] = src[id.x] * 2.0;
}
