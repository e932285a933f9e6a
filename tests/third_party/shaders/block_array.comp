#version 450
// An array of blocks: two inputs at binding 0 (a descriptor array of 2).
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Ins { float v[]; } ins[2];
layout(std430, binding = 1) writeonly buffer Out { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = ins[0].v[i] * ins[1].v[i];
}
