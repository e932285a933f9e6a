#version 450
#extension GL_EXT_control_flow_attributes : enable
// ggml style soft_max: a scale and an f16 mask row broadcast over rows; each loop steps
// by BLOCK_SIZE and breaks once `col0 + tid` passes the row
#extension GL_EXT_shader_16bit_storage : require
layout (push_constant) uniform parameter
{
    uint KX;
    uint KY;
    float scale;
    float max_bias;
} p;

#define BLOCK_SIZE 32
layout(local_size_x = BLOCK_SIZE, local_size_y = 1, local_size_z = 1) in;

layout (binding = 0) readonly buffer X {float data_a[];};
layout (binding = 1) readonly buffer Y {float16_t data_b[];};
layout (binding = 2) buffer D {float data_d[];};

shared float vals[BLOCK_SIZE];

void main() {
    const uint tid = gl_LocalInvocationID.x;
    const uint rowx = gl_WorkGroupID.x;
    const uint rowy = rowx % p.KY;

    float max_val = -1.0 / 0.0;
    for (uint col0 = 0; col0 < p.KX; col0 += BLOCK_SIZE) {
        const uint col = col0 + tid;
        if (col >= p.KX) {
            break;
        }
        max_val = max(max_val, data_a[rowx * p.KX + col] * p.scale + float(data_b[rowy * p.KX + col]));
    }
    vals[tid] = max_val;
    barrier();
    [[unroll]] for (int s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
        if (tid < s) {
            vals[tid] = max(vals[tid], vals[tid + s]);
        }
        barrier();
    }
    max_val = vals[0];
    barrier();

    float sum = 0.0f;
    for (uint col0 = 0; col0 < p.KX; col0 += BLOCK_SIZE) {
        const uint col = col0 + tid;
        if (col >= p.KX) {
            break;
        }
        const uint i = rowx * p.KX + col;
        const float val = exp(data_a[i] * p.scale + float(data_b[rowy * p.KX + col]) - max_val);
        sum += val;
        data_d[i] = val;
    }
    vals[tid] = sum;
    barrier();
    [[unroll]] for (int s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
        if (tid < s) {
            vals[tid] += vals[tid + s];
        }
        barrier();
    }
    sum = 1.0f / vals[0];

    for (uint col0 = 0; col0 < p.KX; col0 += BLOCK_SIZE) {
        const uint col = col0 + tid;
        if (col >= p.KX) {
            break;
        }
        data_d[rowx*p.KX + col] *= sum;
    }
}
