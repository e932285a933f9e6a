// HLSL raw buffers: ByteAddressBuffer loads and RWByteAddressBuffer stores.
ByteAddressBuffer input : register(t0);
RWByteAddressBuffer output : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float v = asfloat(input.Load(id.x * 4));
    output.Store(id.x * 4, asuint(v * v - 1.0));
}
