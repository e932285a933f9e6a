#version 450
// Two descriptor sets: data in set 0, an index table in set 1 (a gather).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Table { float table[]; };
layout(set = 1, binding = 0) readonly buffer Indices { int idx[]; };
layout(set = 1, binding = 1) writeonly buffer Out { float gathered[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    gathered[i] = table[idx[i]];
}
