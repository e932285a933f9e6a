#version 450
// Complex multiply on vec2 buffers (re, im).
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { vec2 a[]; };
layout(binding = 1) readonly buffer B { vec2 b[]; };
layout(binding = 2) writeonly buffer C { vec2 c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= c.length()) return;
    vec2 x = a[i], y = b[i];
    c[i] = vec2(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
