#version 460
#extension GL_ARM_tensors : require
// A shift by one along the row: the read at the last column is out of the tensor's shape
// and gives the out-of-bounds value the shader names (0.0).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform tensorARM<float, 2> x;
layout(set = 0, binding = 1) uniform tensorARM<float, 2> y;
void main() {
    uint i = gl_GlobalInvocationID.x, r = gl_GlobalInvocationID.y;
    float next;
    tensorReadARM(x, uint[](r, i + 1), next, gl_TensorOperandsOutOfBoundsValueARM, 0.0);
    tensorWriteARM(y, uint[](r, i), next);
}
