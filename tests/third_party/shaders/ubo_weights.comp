#version 450
// Weights in a uniform block (std140: one vec4 per weight group).
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) uniform Weights { vec4 w[16]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = x[i] * w[i % 16u];
}
