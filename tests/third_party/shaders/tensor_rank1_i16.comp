#version 460
#extension GL_ARM_tensors : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// A rank-1 int16 tensor, bounds from tensorSizeARM: y = clamp(x * 3, int16 range).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform tensorARM<int16_t, 1> x;
layout(set = 0, binding = 1) uniform tensorARM<int16_t, 1> y;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= tensorSizeARM(y, 0)) return;
    int16_t v;
    tensorReadARM(x, uint[](i), v);
    tensorWriteARM(y, uint[](i), int16_t(clamp(int(v) * 3, -32768, 32767)));
}
