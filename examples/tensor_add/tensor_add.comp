// Adds two [1, 64] float32 tensors (GL_ARM_tensors). Compiled to SPIR-V by the
// scenario runner wheel's glslc (Debian's glslang is too old for GL_ARM_tensors).
#version 460
#extension GL_ARM_tensors : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform tensorARM<float, 2> lhs;
layout(set = 0, binding = 1) uniform tensorARM<float, 2> rhs;
layout(set = 0, binding = 2) uniform tensorARM<float, 2> sum;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float a, b;
    tensorReadARM(lhs, uint[](0, i), a);
    tensorReadARM(rhs, uint[](0, i), b);
    tensorWriteARM(sum, uint[](0, i), a + b);
}
