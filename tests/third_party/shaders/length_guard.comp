#version 450
// Guarded by the output's own length, whatever the dispatch.
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= y.length()) return;
    y[i] = exp(-x[i] * x[i]);
}
