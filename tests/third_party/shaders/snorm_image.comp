#version 450
// rgba8_snorm normals: renormalised to unit length, written back as snorm.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, rgba8_snorm) uniform readonly image2D normals;
layout(binding = 1, rgba8_snorm) uniform writeonly image2D unit;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 n = imageLoad(normals, p);
    imageStore(unit, p, vec4(normalize(n.xyz + vec3(0.0, 0.0, 1e-3)), n.w));
}
