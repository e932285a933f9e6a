#version 450
// One partial sum per workgroup of 256: a tree reduction in shared memory.
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float partial[]; };
shared float tile[256];
void main() {
    uint lid = gl_LocalInvocationID.x;
    tile[lid] = x[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (lid < s) tile[lid] += tile[lid + s];
        barrier();
    }
    if (lid == 0u) partial[gl_WorkGroupID.x] = tile[0];
}
