#version 450
// Per row of a 16 x 64 matrix: the maximum and its column, two results of one workgroup.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Max { float best[]; };
layout(binding = 2) writeonly buffer Arg { int where[]; };
shared float value[64];
shared int column[64];
void main() {
    uint lid = gl_LocalInvocationID.x, row = gl_WorkGroupID.x;
    value[lid] = x[row * 64u + lid];
    column[lid] = int(lid);
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1) {
        if (lid < s && value[lid + s] > value[lid]) {
            value[lid] = value[lid + s];
            column[lid] = column[lid + s];
        }
        barrier();
    }
    if (lid == 0u) { best[row] = value[0]; where[row] = column[0]; }
}
