#version 450
// The activation is chosen by a push-constant mode, as a generic kernel does.
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { int mode; float alpha; } pc;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = x[i];
    switch (pc.mode) {
        case 0: y[i] = max(v, 0.0); break;
        case 1: y[i] = v > 0.0 ? v : pc.alpha * v; break;
        default: y[i] = v / (1.0 + exp(-v)); break;
    }
}
