#version 450
// ggml style generic binary op: strides in elements in a push-constant struct, b broadcast by modulo
#define FLOAT_TYPE float
#define A_TYPE float
#define B_TYPE float
#define D_TYPE float

layout (push_constant) uniform parameter
{
    uint ne;
    uint ne00; uint ne01; uint ne02; uint ne03; uint nb00; uint nb01; uint nb02; uint nb03;
    uint ne10; uint ne11; uint ne12; uint ne13; uint nb10; uint nb11; uint nb12; uint nb13;
    uint ne20; uint ne21; uint ne22; uint ne23; uint nb20; uint nb21; uint nb22; uint nb23;
    uint misalign_offsets;
    float param1; float param2; int param3;
} p;

layout(local_size_x = 512, local_size_y = 1, local_size_z = 1) in;

layout (binding = 0) readonly buffer A {A_TYPE data_a[];};
layout (binding = 1) readonly buffer B {B_TYPE data_b[];};
layout (binding = 2) writeonly buffer D {D_TYPE data_d[];};

uint get_idx() {
    return gl_GlobalInvocationID.z * 262144 + gl_GlobalInvocationID.y * 512 + gl_GlobalInvocationID.x;
}

uint get_aoffset() { return p.misalign_offsets >> 16; }
uint get_boffset() { return (p.misalign_offsets >> 8) & 0xFF; }
uint get_doffset() { return p.misalign_offsets & 0xFF; }

void main() {
    const uint idx = get_idx();
    if (idx >= p.ne) {
        return;
    }
    const uint i03 = idx / (p.ne02*p.ne01*p.ne00);
    const uint i03_offset = i03 * p.ne02*p.ne01*p.ne00;
    const uint i02 = (idx - i03_offset) / (p.ne01*p.ne00);
    const uint i02_offset = i02*p.ne01*p.ne00;
    const uint i01 = (idx - i03_offset - i02_offset) / p.ne00;
    const uint i00 = idx - i03_offset - i02_offset - i01*p.ne00;

    const uint i13 = i03 % p.ne13;
    const uint i12 = i02 % p.ne12;
    const uint i11 = i01 % p.ne11;
    const uint i10 = i00 % p.ne10;

    const uint a_i = i03*p.nb03 + i02*p.nb02 + i01*p.nb01 + i00*p.nb00;
    const uint b_i = i13*p.nb13 + i12*p.nb12 + i11*p.nb11 + i10*p.nb10;
    const uint d_i = i03*p.nb23 + i02*p.nb22 + i01*p.nb21 + i00*p.nb20;

    data_d[get_doffset() + d_i] = D_TYPE(FLOAT_TYPE(data_a[get_aoffset() + a_i]) + FLOAT_TYPE(data_b[get_boffset() + b_i]));
}
