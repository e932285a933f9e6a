#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// RMSNorm per row with subgroupAdd, partial sums of the subgroups combined in shared memory.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) readonly buffer W { float weight[]; };
layout(binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint cols; float eps; } p;
shared float sums[128];
void main() {
    uint row = gl_WorkGroupID.x;
    float s = 0.0;
    for (uint c = gl_LocalInvocationID.x; c < p.cols; c += gl_WorkGroupSize.x) {
        float v = x[row * p.cols + c];
        s += v * v;
    }
    s = subgroupAdd(s);
    if (subgroupElect()) sums[gl_SubgroupID] = s;
    barrier();
    float total = 0.0;
    for (uint i = 0; i < gl_NumSubgroups; ++i) total += sums[i];
    float scale = inversesqrt(total / float(p.cols) + p.eps);
    for (uint c = gl_LocalInvocationID.x; c < p.cols; c += gl_WorkGroupSize.x)
        y[row * p.cols + c] = x[row * p.cols + c] * scale * weight[c];
}
