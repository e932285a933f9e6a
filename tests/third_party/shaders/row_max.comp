#version 450
// Row-wise maximum of a 32 x 128 matrix: one workgroup per row, shared memory.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float m[]; };
shared float tile[128];
void main() {
    uint row = gl_WorkGroupID.x, lid = gl_LocalInvocationID.x;
    tile[lid] = x[row * 128u + lid];
    barrier();
    for (uint s = 64u; s > 0u; s >>= 1) {
        if (lid < s) tile[lid] = max(tile[lid], tile[lid + s]);
        barrier();
    }
    if (lid == 0u) m[row] = tile[0];
}
