#version 460
#extension GL_ARM_tensors : require
// A rank-4 NCHW int32 tensor, guarded by tensorSizeARM: add the channel index.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(set = 0, binding = 0) uniform tensorARM<int, 4> src;
layout(set = 0, binding = 1) uniform tensorARM<int, 4> dst;
void main() {
    uint w = gl_GlobalInvocationID.x, h = gl_GlobalInvocationID.y, c = gl_GlobalInvocationID.z;
    if (w >= tensorSizeARM(dst, 3) || h >= tensorSizeARM(dst, 2)) return;
    int v;
    tensorReadARM(src, uint[](0, c, h, w), v);
    tensorWriteARM(dst, uint[](0, c, h, w), v * 2 + int(c));
}
