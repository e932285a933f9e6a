#version 450
// Instance-named blocks: b.v, not a bare v.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer InBuf { float v[]; } inp;
layout(std430, binding = 1) readonly buffer BiasBuf { float v[]; } bias;
layout(std430, binding = 2) writeonly buffer OutBuf { float v[]; } outp;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= outp.v.length()) return;
    outp.v[i] = inp.v[i] + bias.v[i % bias.v.length()];
}
