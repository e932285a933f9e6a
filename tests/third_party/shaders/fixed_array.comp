#version 450
// Buffers declared with a fixed size, as older samples do.
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer In { float data[1024]; } src;
layout(std430, binding = 1) writeonly buffer Out { float data[1024]; } dst;
void main() {
    uint i = gl_GlobalInvocationID.x;
    dst.data[i] = src.data[i] * src.data[i] - 2.0;
}
