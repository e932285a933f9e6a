#version 450
// The local size and a scale come from specialization constants with defaults,
// as a library does that tunes them per device.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint GROUP = 128u;
layout(constant_id = 1) const float SCALE = 0.5;
layout(constant_id = 2) const uint COUNT = 1000u;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < COUNT)
        y[i] = x[i] * SCALE + float(GROUP);
}
