#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// One sum per workgroup of 128: subgroupAdd inside each subgroup, the subgroups'
// partial sums through shared memory, whatever the device's subgroup size.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[128];
void main() {
    float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
    if (subgroupElect())
        partial[gl_SubgroupID] = s;
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        float total = 0.0;
        for (uint k = 0u; k < gl_NumSubgroups; ++k)
            total += partial[k];
        sums[gl_WorkGroupID.x] = total;
    }
}
