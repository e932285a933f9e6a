#version 450
// Scatter: out[perm[i]] = values[i] (perm is a permutation).
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Values { float values[]; };
layout(binding = 1) readonly buffer Perm { uint perm[]; };
layout(binding = 2) writeonly buffer Out { float outv[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < values.length())
        outv[perm[i]] = values[i];
}
