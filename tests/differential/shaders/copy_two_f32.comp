// Copies one float buffer into two: an op with two results.
#version 460
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(set = 0, binding = 0) readonly buffer Input { float data[]; } inp;
layout(set = 0, binding = 1) writeonly buffer First { float data[]; } first;
layout(set = 0, binding = 2) writeonly buffer Second { float data[]; } second;
void main() {
    uint i = gl_GlobalInvocationID.x;
    first.data[i] = inp.data[i];
    second.data[i] = inp.data[i];
}
