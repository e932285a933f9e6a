#version 450
// A 3-tap 1-D convolution with zero padding at both ends.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
const uint N = 512u;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float left = i > 0u ? x[i - 1u] : 0.0;
    float right = i + 1u < N ? x[i + 1u] : 0.0;
    y[i] = 0.25 * left + 0.5 * x[i] + 0.25 * right;
}
