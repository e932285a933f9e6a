#version 450
// Wrap-around shift: normalised coordinates past 1.0 sampled with repeat addressing.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D src;
layout(binding = 1, r32f) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 size = vec2(imageSize(dst));
    vec2 uv = (vec2(p) + vec2(4.5, 0.5)) / size;
    imageStore(dst, p, texture(src, uv));
}
