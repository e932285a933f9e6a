#version 450
#extension GL_EXT_shader_8bit_storage : require
// uint8 pixels through a 256-entry lookup table (gamma), 8-bit storage only.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Pixels { uint8_t px[]; };
layout(binding = 1) readonly buffer Table { uint lut[]; };
layout(binding = 2) writeonly buffer Out { uint8_t o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = uint8_t(lut[uint(px[i])]);
}
