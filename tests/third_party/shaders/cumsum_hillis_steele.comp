#version 450
// Inclusive prefix sum of each 128-wide row: Hillis-Steele scan, ping-pong shared buffers.
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float a[]; };
layout(binding = 1) writeonly buffer Out { float s[]; };
shared float buf[2][128];
void main() {
    uint row = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;
    uint src = 0u;
    buf[0][t] = a[row * 128u + t];
    barrier();
    for (uint off = 1u; off < 128u; off <<= 1) {
        float v = buf[src][t];
        if (t >= off) v += buf[src][t - off];
        buf[1u - src][t] = v;
        src = 1u - src;
        barrier();
    }
    s[row * 128u + t] = buf[src][t];
}
