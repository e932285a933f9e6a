#version 460
#extension GL_ARM_tensors : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// A uint8 tensor dequantized into a float storage buffer: (q - 128) / 64.
layout(local_size_x = 32, local_size_y = 2) in;
layout(set = 0, binding = 0) uniform tensorARM<uint8_t, 2> q;
layout(set = 0, binding = 1) writeonly buffer Out { float deq[]; };
void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    uint w = tensorSizeARM(q, 1);
    if (x >= w || y >= tensorSizeARM(q, 0)) return;
    uint8_t v;
    tensorReadARM(q, uint[](y, x), v);
    deq[y * w + x] = (float(v) - 128.0) / 64.0;
}
