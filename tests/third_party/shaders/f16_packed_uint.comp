#version 450
// float16 pairs packed in uint words: unpackHalf2x16, swish in float32, packHalf2x16.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { uint words[]; };
layout(binding = 1) writeonly buffer Out { uint outw[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= words.length()) return;
    vec2 v = unpackHalf2x16(words[i]);
    outw[i] = packHalf2x16(v / (1.0 + exp(-v)));
}
