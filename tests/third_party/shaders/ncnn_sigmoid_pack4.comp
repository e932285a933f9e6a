#version 450
// ncnn pack4: four channels per element as vec4, macros for load/store, flat 1-D dispatch
#define sfpvec4 vec4
#define afpvec4 vec4
#define buffer_ld4(buf,i) buf[i]
#define buffer_st4(buf,i,v) {buf[i]=v;}

layout (constant_id = 0) const int w = 0;
layout (constant_id = 1) const int h = 0;
layout (constant_id = 2) const int c = 0;
layout (constant_id = 3) const int cstep = 0;
#define psc(x) (x==0?p.x:x)

layout (local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout (binding = 0) readonly buffer bottom_blob { sfpvec4 bottom_blob_data[]; };
layout (binding = 1) writeonly buffer top_blob { sfpvec4 top_blob_data[]; };

layout (push_constant) uniform parameter { int w; int h; int c; int cstep; } p;

void main()
{
    int gx = int(gl_GlobalInvocationID.x);
    int gy = int(gl_GlobalInvocationID.y);
    int gz = int(gl_GlobalInvocationID.z);
    if (gx >= psc(w) * psc(h) || gy >= 1 || gz >= psc(c))
        return;
    const int gi = gz * psc(cstep) + gx;
    afpvec4 v = buffer_ld4(bottom_blob_data, gi);
    v = afpvec4(1.f) / (afpvec4(1.f) + exp(-v));
    buffer_st4(top_blob_data, gi, v);
}
