#version 450
// std140 on a storage buffer: float arrays get a 16-byte stride (an author's slip).
layout(local_size_x = 64) in;
layout(std140, binding = 0) readonly buffer In { float a[]; };
layout(std430, binding = 1) writeonly buffer Out { float b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    b[i] = a[i] + 1.0;
}
