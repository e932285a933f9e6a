// Two float32 inputs, two outputs: their sum and their difference, in storage buffers.
#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer Sum { float sum[]; };
layout(set = 0, binding = 3) writeonly buffer Diff { float diff[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    sum[i] = a[i] + b[i];
    diff[i] = a[i] - b[i];
}
