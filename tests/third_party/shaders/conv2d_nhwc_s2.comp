#version 450
// NHWC conv2d, 3x3 kernel (HWIO weights), padding 1, stride 2.
// x = output column, y = output row, z = output channel.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(std430, binding = 0) readonly buffer Input { float inp[]; };
layout(std430, binding = 1) readonly buffer Weights { float w[]; };
layout(std430, binding = 2) writeonly buffer Output { float outp[]; };
const int H = 16, W = 16, IC = 4, OC = 8, OH = 8, OW = 8;
void main() {
    int ox = int(gl_GlobalInvocationID.x);
    int oy = int(gl_GlobalInvocationID.y);
    int oc = int(gl_GlobalInvocationID.z);
    if (ox >= OW || oy >= OH || oc >= OC) return;
    float acc = 0.0;
    for (int ky = 0; ky < 3; ++ky) {
        int iy = oy * 2 + ky - 1;
        if (iy < 0 || iy >= H) continue;
        for (int kx = 0; kx < 3; ++kx) {
            int ix = ox * 2 + kx - 1;
            if (ix < 0 || ix >= W) continue;
            for (int ic = 0; ic < IC; ++ic)
                acc += inp[(iy * W + ix) * IC + ic] * w[((ky * 3 + kx) * IC + ic) * OC + oc];
        }
    }
    outp[(oy * OW + ox) * OC + oc] = acc;
}
