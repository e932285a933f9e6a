#version 450
// vec4 loads and stores: each invocation handles four floats.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { vec4 v[]; };
layout(binding = 1) readonly buffer Scale { vec4 s[]; };
layout(binding = 2) writeonly buffer Out { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = v[i] * s[i] + vec4(0.5);
}
