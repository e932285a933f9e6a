#version 450
#extension GL_EXT_scalar_block_layout : require
// Tightly packed vec3 points (scalar layout) transformed by a mat4 in push constants.
layout(local_size_x = 64) in;
layout(push_constant) uniform Transform { mat4 model; } pc;
layout(scalar, binding = 0) readonly buffer Points { vec3 points[]; };
layout(scalar, binding = 1) writeonly buffer Out { vec3 moved[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    moved[i] = (pc.model * vec4(points[i], 1.0)).xyz;
}
