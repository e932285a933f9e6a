#version 450
// A sampled image read at each texel's centre with normalised coordinates.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1, rgba32f) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) + 0.5) / vec2(textureSize(tex, 0));
    imageStore(dst, p, texture(tex, uv).bgra);
}
