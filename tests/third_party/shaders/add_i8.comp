#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
// Saturating int8 add.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { int8_t a[]; };
layout(binding = 1) readonly buffer B { int8_t b[]; };
layout(binding = 2) writeonly buffer C { int8_t c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    c[i] = int8_t(clamp(int(a[i]) + int(b[i]), -128, 127));
}
