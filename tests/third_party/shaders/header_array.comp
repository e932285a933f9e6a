#version 450
// A buffer with a header before its runtime array: a scale, then the data.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float scale; float data[]; } src;
layout(std430, binding = 1) writeonly buffer Out { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(src.data.length()))
        result[i] = src.data[i] * src.scale;
}
