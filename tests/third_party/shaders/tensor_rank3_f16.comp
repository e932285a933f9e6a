#version 460
#extension GL_ARM_tensors : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Rank-3 float16 tensors (C, H, W): out = a * b + 1, one invocation per element.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(set = 0, binding = 0) uniform tensorARM<float16_t, 3> a;
layout(set = 0, binding = 1) uniform tensorARM<float16_t, 3> b;
layout(set = 0, binding = 2) uniform tensorARM<float16_t, 3> o;
void main() {
    uvec3 g = gl_GlobalInvocationID;
    float16_t va, vb;
    tensorReadARM(a, uint[](g.z, g.y, g.x), va);
    tensorReadARM(b, uint[](g.z, g.y, g.x), vb);
    tensorWriteARM(o, uint[](g.z, g.y, g.x), va * vb + float16_t(1.0));
}
