#version 450
// Each invocation upsamples one input pixel into a 2 x 2 block (nearest neighbour).
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
const uint W = 16u;  // input width; the output is 2W wide
void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    float v = x[p.y * W + p.x];
    uint o = (2u * p.y) * (2u * W) + 2u * p.x;
    y[o] = v;
    y[o + 1u] = v;
    y[o + 2u * W] = v;
    y[o + 2u * W + 1u] = v;
}
