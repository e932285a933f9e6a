#version 450
// One invocation per column: normalise each column of a 32 x 96 matrix by its maximum.
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
const uint ROWS = 32u, COLS = 96u;
void main() {
    uint col = gl_GlobalInvocationID.x;
    float m = 1e-6;
    for (uint r = 0u; r < ROWS; ++r) m = max(m, abs(x[r * COLS + col]));
    for (uint r = 0u; r < ROWS; ++r) y[r * COLS + col] = x[r * COLS + col] / m;
}
