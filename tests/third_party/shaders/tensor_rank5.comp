#version 460
#extension GL_ARM_tensors : require
// A rank-5 tensor (N, D, H, W, C) with C = 1: doubled.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 2) in;
layout(set = 0, binding = 0) uniform tensorARM<float, 5> src;
layout(set = 0, binding = 1) uniform tensorARM<float, 5> dst;
void main() {
    uvec3 g = gl_GlobalInvocationID;
    float v;
    tensorReadARM(src, uint[](0, g.z, g.y, g.x, 0), v);
    tensorWriteARM(dst, uint[](0, g.z, g.y, g.x, 0), 2.0 * v);
}
