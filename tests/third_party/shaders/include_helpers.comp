#version 450
#extension GL_GOOGLE_include_directive : require
// Activation functions shared through a header next to the shader.
#include "activations.glsl"
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = gelu_tanh(x[i]) + leaky_relu(x[i], 0.1);
}
