#version 450
// y = alpha * x + y0 over the first n elements; alpha and n in push constants.
layout(local_size_x = 128) in;
layout(push_constant) uniform Params { float alpha; uint n; } pc;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer Y0 { float y0[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n) return;
    y[i] = pc.alpha * x[i] + y0[i];
}
