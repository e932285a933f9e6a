#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Full 64-bit product of two uint32 arrays, written as low and high words.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) readonly buffer B { uint b[]; };
layout(binding = 2) writeonly buffer Lo { uint lo[]; };
layout(binding = 3) writeonly buffer Hi { uint hi[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t p = uint64_t(a[i]) * uint64_t(b[i]);
    lo[i] = uint(p & 0xFFFFFFFFul);
    hi[i] = uint(p >> 32);
}
