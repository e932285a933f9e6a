#version 450
// ncnn with fp16 storage switched on by a macro: storage float16, arithmetic float
#if NCNN_fp16_storage
#extension GL_EXT_shader_16bit_storage: require
#define sfp float16_t
#else
#define sfp float
#endif
#define afp float
#define buffer_ld1(buf,i) float(buf[i])
#define buffer_st1(buf,i,v) {buf[i]=sfp(v);}

layout (local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout (binding = 0) readonly buffer a_blob { sfp a_blob_data[]; };
layout (binding = 1) readonly buffer b_blob { sfp b_blob_data[]; };
layout (binding = 2) writeonly buffer top_blob { sfp top_blob_data[]; };
layout (push_constant) uniform parameter { int w; int h; int c; int cstep; } p;

void main()
{
    int gx = int(gl_GlobalInvocationID.x);
    int gy = int(gl_GlobalInvocationID.y);
    int gz = int(gl_GlobalInvocationID.z);
    if (gx >= p.w || gy >= p.h || gz >= p.c)
        return;
    const int gi = gz * p.cstep + gy * p.w + gx;
    afp a = buffer_ld1(a_blob_data, gi);
    afp b = buffer_ld1(b_blob_data, gi);
    buffer_st1(top_blob_data, gi, a * b + a);
}
