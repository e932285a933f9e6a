#version 450
// ncnn ConvolutionDepthWise pack4: 3x3 kernel, vec4 weights per channel pack, padding already applied
#define sfpvec4 vec4
#define afpvec4 vec4
layout (constant_id = 0) const int kernel_w = 3;
layout (constant_id = 1) const int kernel_h = 3;
layout (constant_id = 2) const int bias_term = 1;
layout (local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout (binding = 0) readonly buffer bottom_blob { sfpvec4 bottom_blob_data[]; };
layout (binding = 1) writeonly buffer top_blob { sfpvec4 top_blob_data[]; };
layout (binding = 2) readonly buffer weight_blob { sfpvec4 weight_data[]; };
layout (binding = 3) readonly buffer bias_blob { sfpvec4 bias_data[]; };
layout (push_constant) uniform parameter
{
    int w; int h; int c; int cstep;
    int outw; int outh; int outc; int outcstep;
} p;
void main()
{
    int gx = int(gl_GlobalInvocationID.x);
    int gy = int(gl_GlobalInvocationID.y);
    int gz = int(gl_GlobalInvocationID.z);
    if (gx >= p.outw || gy >= p.outh || gz >= p.outc)
        return;
    afpvec4 sum = bias_term == 1 ? bias_data[gz] : afpvec4(0.f);
    int w_offset = gz * kernel_w * kernel_h;
    int v_offset = gz * p.cstep + gy * p.w + gx;
    for (int y = 0; y < kernel_h; y++)
    {
        for (int x = 0; x < kernel_w; x++)
        {
            sum += bottom_blob_data[v_offset + x] * weight_data[w_offset + x];
        }
        v_offset += p.w;
        w_offset += kernel_w;
    }
    top_blob_data[gz * p.outcstep + gy * p.outw + gx] = sum;
}
