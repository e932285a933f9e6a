#version 450
// Row-wise softmax of a ROWS x 256 matrix: one workgroup per row, a max pass and a
// sum pass through shared memory, then every element normalised.
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer Logits { float logits[]; };
layout(binding = 1) writeonly buffer Probs { float probs[]; };
shared float scratch[256];

float reduce_max(uint lid, float v) {
    scratch[lid] = v;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (lid < s) scratch[lid] = max(scratch[lid], scratch[lid + s]);
        barrier();
    }
    float result = scratch[0];
    barrier();
    return result;
}

float reduce_sum(uint lid, float v) {
    scratch[lid] = v;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier();
    }
    float result = scratch[0];
    barrier();
    return result;
}

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint i = gl_WorkGroupID.x * 256u + lid;
    float x = logits[i];
    float m = reduce_max(lid, x);
    float e = exp(x - m);
    float total = reduce_sum(lid, e);
    probs[i] = e / total;
}
