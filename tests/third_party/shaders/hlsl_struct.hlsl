// HLSL: a structured buffer of structs (position + mass), one float out per item.
struct Particle { float3 position; float mass; };
StructuredBuffer<Particle> particles : register(t0);
RWStructuredBuffer<float> energy : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Particle p = particles[id.x];
    energy[id.x] = 0.5 * p.mass * dot(p.position, p.position);
}
