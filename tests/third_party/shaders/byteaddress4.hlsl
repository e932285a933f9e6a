// ByteAddressBuffer Load4 / RWByteAddressBuffer Store4: four floats per thread.
ByteAddressBuffer src : register(t0);
RWByteAddressBuffer dst : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
    uint address = tid.x * 16;
    float4 v = asfloat(src.Load4(address));
    dst.Store4(address, asuint(v * 2.0 - 1.0));
}
