#version 450
// A 2-D kernel over a 48 x 64 matrix: 16 x 16 tiles, row-major index gid.y * W + gid.x.
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) readonly buffer In { float src[]; };
layout(binding = 1) writeonly buffer Out { float dst[]; };
const uint W = 64u;
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    dst[g.y * W + g.x] = src[g.y * W + g.x] * 3.0 - 1.0;
}
