#version 310 es
// A compute shader from an OpenGL ES 3.1 code base (Android), unchanged.
precision highp float;
precision highp int;
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Input { float data[]; } inp;
layout(std430, binding = 1) writeonly buffer Output { float data[]; } outp;
void main() {
    uint i = gl_GlobalInvocationID.x;
    outp.data[i] = inp.data[i] * 0.5 + 1.0;
}
