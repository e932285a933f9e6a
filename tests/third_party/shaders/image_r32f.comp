#version 450
// A single-channel float image, scaled.
layout(local_size_x = 16, local_size_y = 4) in;
layout(binding = 0, r32f) uniform readonly image2D src;
layout(binding = 1, r32f) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(dst, p, imageLoad(src, p) * 0.5);
}
