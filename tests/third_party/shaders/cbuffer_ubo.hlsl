// HLSL: parameters in a plain cbuffer (a uniform buffer).
cbuffer Params : register(b0) { float scale; float bias; };
StructuredBuffer<float> src : register(t1);
RWStructuredBuffer<float> dst : register(u2);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    dst[id.x] = src[id.x] * scale + bias;
}
