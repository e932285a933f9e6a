#version 450
// uvec4 and ivec4 buffers: per-lane bit manipulation on packed words.
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer Words { uvec4 words[]; };
layout(binding = 1) readonly buffer Shifts { ivec4 shifts[]; };
layout(binding = 2) writeonly buffer Out { uvec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 w = words[i];
    ivec4 s = shifts[i] & 31;
    o[i] = (w << uvec4(s)) ^ (w >> 3u);
}
