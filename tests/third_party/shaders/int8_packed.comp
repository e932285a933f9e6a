#version 450
// int8 packed 4 per uint: unpack with bitfieldExtract, add, saturate, repack.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) readonly buffer B { uint b[]; };
layout(binding = 2) writeonly buffer C { uint c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint packed = 0u;
    for (int lane = 0; lane < 4; ++lane) {
        int x = bitfieldExtract(int(a[i]), lane * 8, 8);
        int y = bitfieldExtract(int(b[i]), lane * 8, 8);
        int s = clamp(x + y, -128, 127);
        packed |= (uint(s) & 0xFFu) << (lane * 8);
    }
    c[i] = packed;
}
