#version 450
// A shader library's generic kernel: the element type and operator come from macros.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { TestType a[]; };
layout(binding = 1) readonly buffer B { TestType b[]; };
layout(binding = 2) writeonly buffer C { TestType c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    c[i] = a[i] OP b[i];
}
