#version 450
// The row width comes from the dispatch itself: gl_NumWorkGroups x the local size.
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint width = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint i = gl_GlobalInvocationID.y * width + gl_GlobalInvocationID.x;
    y[i] = -x[i];
}
