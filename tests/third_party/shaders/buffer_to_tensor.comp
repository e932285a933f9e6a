#version 460
#extension GL_ARM_tensors : require
// A float storage buffer quantized into an int32 tensor of rank 2.
layout(local_size_x = 16, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer In { float src[]; };
layout(set = 0, binding = 1) uniform tensorARM<int, 2> dst;
void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    tensorWriteARM(dst, uint[](y, x), int(round(src[y * 32 + x] * 10.0)));
}
