#version 450
// Per-channel bias and ReLU over an N x C x H x W tensor: x walks W, y walks H,
// z walks the N * C planes.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 1) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) readonly buffer Bias { float bias[]; };
layout(binding = 2) writeonly buffer Out { float y[]; };
const uint C = 3u, H = 12u, W = 16u;
void main() {
    uint w = gl_GlobalInvocationID.x, h = gl_GlobalInvocationID.y;
    uint plane = gl_GlobalInvocationID.z;
    uint c = plane % C;
    uint i = (plane * H + h) * W + w;
    y[i] = max(x[i] + bias[c], 0.0);
}
