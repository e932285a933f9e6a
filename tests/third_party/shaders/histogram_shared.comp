#version 450
// A 64-bin histogram per block of 256 values: shared-memory atomics, then one
// row of the output per workgroup.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Codes { uint codes[]; };
layout(binding = 1) writeonly buffer Counts { uint counts[]; };
shared uint local_bins[64];
void main() {
    uint lid = gl_LocalInvocationID.x, group = gl_WorkGroupID.x;
    local_bins[lid] = 0u;
    barrier();
    for (uint k = 0u; k < 4u; ++k)
        atomicAdd(local_bins[codes[group * 256u + k * 64u + lid] & 63u], 1u);
    barrier();
    counts[group * 64u + lid] = local_bins[lid];
}
