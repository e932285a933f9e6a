#version 450
// The bias binding is declared but only read when USE_BIAS is defined.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float a[]; };
layout(binding = 1) readonly buffer Bias { float bias[]; };
layout(binding = 2) writeonly buffer Out { float b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = a[i] * 3.0;
#ifdef USE_BIAS
    v += bias[i];
#endif
    b[i] = v;
}
