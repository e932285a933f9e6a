#version 460
#extension GL_ARM_tensors : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// An NHWC int8 tensor negated (rank 4, channel innermost).
layout(local_size_x = 4, local_size_y = 8, local_size_z = 1) in;
layout(set = 0, binding = 0) uniform tensorARM<int8_t, 4> src;
layout(set = 0, binding = 1) uniform tensorARM<int8_t, 4> dst;
void main() {
    uint c = gl_GlobalInvocationID.x, w = gl_GlobalInvocationID.y, h = gl_GlobalInvocationID.z;
    int8_t v;
    tensorReadARM(src, uint[](0, h, w, c), v);
    tensorWriteARM(dst, uint[](0, h, w, c), int8_t(-int(v)));
}
