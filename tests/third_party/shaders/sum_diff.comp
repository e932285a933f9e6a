#version 450
// Two results from one kernel.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer S { float s[]; };
layout(binding = 3) writeonly buffer D { float d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    s[i] = a[i] + b[i];
    d[i] = a[i] - b[i];
}
