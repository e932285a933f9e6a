// No #version line: the reference runtime compiles it as #version 460.
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = floor(x[i]) + fract(x[i]) * 0.5;
}
