#version 450
// Downsample by 2 with a bilinear sampler: each output texel samples at the corner shared
// by four source texels, textureLod at level 0; size from textureSize.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D src;
layout(binding = 1, rgba32f) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = vec2(2 * p + 1) / vec2(textureSize(src, 0));
    imageStore(dst, p, textureLod(src, uv, 0.0));
}
