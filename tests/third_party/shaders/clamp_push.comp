#version 450
// Clamp with bounds from push constants (std430 offsets 0 and 4).
layout(local_size_x = 64) in;
layout(push_constant, std430) uniform Bounds { float lo; float hi; } bounds;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = clamp(x[i], bounds.lo, bounds.hi);
}
