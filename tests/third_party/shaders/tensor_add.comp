#version 460
#extension GL_ARM_tensors : require
// Tensors (VK_ARM_tensors): read two rank-2 tensors, write their sum.
layout(local_size_x = 16, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform tensorARM<float, 2> a;
layout(set = 0, binding = 1) uniform tensorARM<float, 2> b;
layout(set = 0, binding = 2) uniform tensorARM<float, 2> c;
void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    float va, vb;
    tensorReadARM(a, uint[](y, x), va);
    tensorReadARM(b, uint[](y, x), vb);
    tensorWriteARM(c, uint[](y, x), va + vb);
}
