#version 450
// std140 push constants: a vec4 at offset 16 and an array with a 16-byte stride.
layout(local_size_x = 64) in;
layout(push_constant, std140) uniform Params {
    float gain;
    vec4 tint;
    float weights[3];
} params;
layout(binding = 0) readonly buffer In { vec4 v[]; };
layout(binding = 1) writeonly buffer Out { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = v[i] * params.tint * params.gain + vec4(params.weights[i % 3u]);
}
