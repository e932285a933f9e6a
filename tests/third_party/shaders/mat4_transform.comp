#version 450
// One mat4 per point: out[i] = M[i] * p[i] (column-major mat4 in the buffer).
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Mats { mat4 mats[]; };
layout(std430, binding = 1) readonly buffer Pts { vec4 pts[]; };
layout(std430, binding = 2) writeonly buffer Out { vec4 res[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    res[i] = mats[i] * pts[i];
}
