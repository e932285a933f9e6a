// A RWStructuredBuffer of structs written field by field: min and max of each pair.
struct MinMax { float lo; float hi; };
StructuredBuffer<float2> pairs : register(t0);
RWStructuredBuffer<MinMax> bounds : register(u1);
[numthreads(32, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
    float2 p = pairs[tid.x];
    MinMax m;
    m.lo = min(p.x, p.y);
    m.hi = max(p.x, p.y);
    bounds[tid.x] = m;
}
