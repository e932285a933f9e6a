// HLSL half precision (16-bit floats with -enable-16bit-types).
StructuredBuffer<half> a : register(t0);
StructuredBuffer<half> b : register(t1);
RWStructuredBuffer<half> c : register(u2);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    c[id.x] = a[id.x] + b[id.x];
}
