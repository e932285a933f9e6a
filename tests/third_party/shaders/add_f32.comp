#version 450
// Element-wise add, one invocation per element (the "hello world" of compute).
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    c[i] = a[i] + b[i];
}
