#version 450
// 3 x 3 box blur of a single-channel image, neighbours clamped to the edge.
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0, r32f) uniform readonly image2D src;
layout(binding = 1, r32f) uniform writeonly image2D dst;
void main() {
    ivec2 size = imageSize(src);
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y) return;
    float sum = 0.0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            sum += imageLoad(src, clamp(p + ivec2(dx, dy), ivec2(0), size - 1)).r;
    imageStore(dst, p, vec4(sum / 9.0));
}
