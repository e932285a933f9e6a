#version 450
// Write a BGRA swapchain-style image: no format qualifier on the storage image
// (shaderStorageImageWriteWithoutFormat); the format is the attribute's.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, rgba8) uniform readonly image2D src;
layout(binding = 1) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(dst, p, imageLoad(src, p));
}
