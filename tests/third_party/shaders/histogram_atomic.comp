#version 450
// A 16-bin histogram of values in [0, 1): atomicAdd into the output buffer.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Values { float v[]; };
layout(binding = 1) buffer Histogram { uint bins[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint bin = min(uint(v[i] * 16.0), 15u);
    atomicAdd(bins[bin], 1u);
}
