#version 450
// A 3-D grid: index (z * H + y) * W + x over a 4 x 8 x 16 volume.
layout(local_size_x = 16, local_size_y = 2, local_size_z = 2) in;
layout(binding = 0) readonly buffer In { float v[]; };
layout(binding = 1) writeonly buffer Out { float o[]; };
void main() {
    uvec3 g = gl_GlobalInvocationID;
    uint i = (g.z * 8u + g.y) * 16u + g.x;
    o[i] = v[i] + float(g.z);
}
