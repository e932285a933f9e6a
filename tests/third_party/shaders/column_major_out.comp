#version 450
// Reads row-major, writes column-major: out[x * H + y] (a layout conversion).
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
const uint H = 16u, W = 24u;
void main() {
    uint c = gl_GlobalInvocationID.x, r = gl_GlobalInvocationID.y;
    y[c * H + r] = x[r * W + c] + 1.0;
}
