#version 450
// int32 ReLU with a threshold given as a macro.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = x[i] > THRESHOLD ? x[i] : 0;
}
