#version 450
// A half-float RGBA storage image: premultiply colour by alpha.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, rgba16f) uniform readonly image2D src;
layout(binding = 1, rgba16f) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 c = imageLoad(src, p);
    imageStore(dst, p, vec4(c.rgb * c.a, c.a));
}
