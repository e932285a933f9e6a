#version 450
// A 2-D local size from specialization constants (8 x 8 by default) over an image.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 0) const uint TILE_X = 8u;
layout(constant_id = 1) const uint TILE_Y = 8u;
layout(binding = 0, r32f) uniform readonly image2D src;
layout(binding = 1, r32f) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(dst)))) return;
    imageStore(dst, p, vec4(imageLoad(src, p).r * 0.25));
}
