#version 450
// IREE/Kompute-like register-blocked matmul: 8 x 8 invocations, each a 4 x 4 block of C
#define M 64
#define N 64
#define K 32
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer LHS { float lhs[]; };
layout(set = 0, binding = 1) readonly buffer RHS { vec4 rhs[]; };
layout(set = 0, binding = 2) writeonly buffer OUT { vec4 result[]; };
void main() {
    uvec2 gid = gl_GlobalInvocationID.xy;
    uint row0 = gid.y * 4;
    uint col4 = gid.x;
    vec4 acc[4] = vec4[4](vec4(0), vec4(0), vec4(0), vec4(0));
    for (uint k = 0; k < K; ++k) {
        vec4 b = rhs[k * (N / 4) + col4];
        for (uint r = 0; r < 4; ++r) {
            acc[r] += lhs[(row0 + r) * K + k] * b;
        }
    }
    for (uint r = 0; r < 4; ++r) {
        result[(row0 + r) * (N / 4) + col4] = acc[r];
    }
}
