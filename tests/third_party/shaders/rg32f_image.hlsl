// HLSL: a two-channel float texture (Rg32f).
RWTexture2D<float2> src : register(u0);
RWTexture2D<float2> dst : register(u1);
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    dst[id.xy] = src[id.xy].yx;
}
