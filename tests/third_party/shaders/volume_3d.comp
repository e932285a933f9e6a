#version 450
// A 3-D grid: index (z * H + y) * W + x over a D x H x W = 4 x 8 x 16 volume, guarded.
layout(local_size_x = 16, local_size_y = 2, local_size_z = 2) in;
layout(binding = 0) readonly buffer In { float v[]; };
layout(binding = 1) writeonly buffer Out { float o[]; };
const uvec3 SIZE = uvec3(16u, 8u, 4u);  // W, H, D
void main() {
    uvec3 g = gl_GlobalInvocationID;
    if (any(greaterThanEqual(g, SIZE))) return;
    uint i = (g.z * SIZE.y + g.y) * SIZE.x + g.x;
    o[i] = v[i] + float(g.z);
}
