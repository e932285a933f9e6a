#version 450
// r16f depth image: reciprocal, guarded by imageSize.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, r16f) uniform readonly image2D depth;
layout(binding = 1, r16f) uniform writeonly image2D inv;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(inv)))) return;
    imageStore(inv, p, vec4(1.0 / imageLoad(depth, p).r));
}
