// Leaky ReLU on float32: y = x for x > 0, else 0.01 x (NaN stays NaN, -0.0 stays -0.0).
#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = x[i];
    y[i] = v > 0.0 ? v : 0.01 * v;
}
