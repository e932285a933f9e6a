#version 450
// out = transpose(in) * 2 with the store out[x * H + y]; in is H x W.
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) readonly buffer In { float a[]; };
layout(binding = 1) writeonly buffer Out { float b[]; };
layout(push_constant) uniform Dims { uint H; uint W; };
void main() {
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
    if (x >= W || y >= H) return;
    b[x * H + y] = 2.0 * a[y * W + x];
}
