#version 450
// In place: the same buffer is read and written (the op has one operand, one result).
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    d[i] = d[i] * 2.0 + 1.0;
}
