#version 450
// Matrix transpose through a padded shared-memory tile (coalesced reads and writes).
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
const uint ROWS = 48u, COLS = 32u;
shared float tile[16][17];
void main() {
    uvec2 l = gl_LocalInvocationID.xy, g = gl_WorkGroupID.xy;
    tile[l.y][l.x] = x[(g.y * 16u + l.y) * COLS + g.x * 16u + l.x];
    barrier();
    y[(g.x * 16u + l.y) * ROWS + g.y * 16u + l.x] = tile[l.x][l.y];
}
