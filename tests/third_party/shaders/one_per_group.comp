#version 450
// One invocation per workgroup, one workgroup per element.
layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_WorkGroupID.x;
    y[i] = abs(x[i]) + 1.0;
}
