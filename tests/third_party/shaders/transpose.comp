#version 450
// Transpose a ROWS x COLS matrix (macros given with -D).
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) readonly buffer In { float src[]; };
layout(binding = 1) writeonly buffer Out { float dst[]; };
void main() {
    uint x = gl_GlobalInvocationID.x;  // column of src
    uint y = gl_GlobalInvocationID.y;  // row of src
    if (x < COLS && y < ROWS)
        dst[x * ROWS + y] = src[y * COLS + x];
}
