#version 450
// C = A x B with 16 x 16 tiles staged in shared memory (the classic tiled matmul).
// A is M x K, B is K x N, C is M x N, all row-major; M, N, K multiples of TILE.
#define TILE 16
layout(local_size_x = TILE, local_size_y = TILE) in;
layout(std430, binding = 0) readonly buffer MatA { float A[]; };
layout(std430, binding = 1) readonly buffer MatB { float B[]; };
layout(std430, binding = 2) writeonly buffer MatC { float C[]; };
const uint M = 32u, N = 48u, K = 64u;
shared float tileA[TILE][TILE];
shared float tileB[TILE][TILE];
void main() {
    uint row = gl_GlobalInvocationID.y;
    uint col = gl_GlobalInvocationID.x;
    uint ty = gl_LocalInvocationID.y, tx = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint t = 0u; t < K / TILE; ++t) {
        tileA[ty][tx] = A[row * K + t * TILE + tx];
        tileB[ty][tx] = B[(t * TILE + ty) * N + col];
        barrier();
        for (uint k = 0u; k < TILE; ++k)
            acc += tileA[ty][k] * tileB[k][tx];
        barrier();
    }
    C[row * N + col] = acc;
}
