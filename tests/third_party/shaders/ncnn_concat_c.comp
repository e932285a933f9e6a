#version 450
// ncnn Concat along channels: two inputs, each invocation copies one element of one of them
#define sfp float
layout (local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout (binding = 0) readonly buffer a_blob { sfp a_data[]; };
layout (binding = 1) readonly buffer b_blob { sfp b_data[]; };
layout (binding = 2) writeonly buffer top_blob { sfp top_data[]; };
layout (push_constant) uniform parameter { int w; int h; int ca; int cb; int cstep; } p;
void main()
{
    int gx = int(gl_GlobalInvocationID.x);
    int gy = int(gl_GlobalInvocationID.y);
    int gz = int(gl_GlobalInvocationID.z);
    if (gx >= p.w || gy >= p.h || gz >= p.ca + p.cb)
        return;
    int gi = gz * p.cstep + gy * p.w + gx;
    if (gz < p.ca)
        top_data[gi] = a_data[gi];
    else
        top_data[gi] = b_data[gi - p.ca * p.cstep];
}
