#version 450
// Bit manipulation on uint32.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = uint(bitCount(x[i])) + (x[i] >> 28);
}
