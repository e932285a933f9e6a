// HLSL storage images: RWTexture2D<float4> read and written with [] at the thread's pixel.
RWTexture2D<float4> src : register(u0);
RWTexture2D<float4> dst : register(u1);
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 c = src[id.xy];
    dst[id.xy] = float4(c.rgb * 0.5, 1.0);
}
