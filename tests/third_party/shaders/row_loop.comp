#version 450
// One invocation per row: a running (prefix) sum along each row of a ROWS x 40 matrix.
layout(local_size_x = 16) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
const uint COLS = 40u;
void main() {
    uint row = gl_GlobalInvocationID.x;
    float running = 0.0;
    for (uint c = 0u; c < COLS; ++c) {
        running += x[row * COLS + c];
        y[row * COLS + c] = running;
    }
}
