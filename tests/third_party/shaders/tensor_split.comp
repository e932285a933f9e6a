#version 460
#extension GL_ARM_tensors : require
// Two tensor outputs: the positive and the negative part of one tensor.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform tensorARM<float, 2> x;
layout(set = 0, binding = 1) uniform tensorARM<float, 2> pos;
layout(set = 0, binding = 2) uniform tensorARM<float, 2> neg;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint row = gl_WorkGroupID.y;
    float v;
    tensorReadARM(x, uint[](row, i), v);
    tensorWriteARM(pos, uint[](row, i), max(v, 0.0));
    tensorWriteARM(neg, uint[](row, i), min(v, 0.0));
}
