#version 450
// RGBA8 (unorm) pixels to a float luminance image.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, rgba8) uniform readonly image2D src;
layout(binding = 1, r32f) uniform writeonly image2D luma;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec3 c = imageLoad(src, p).rgb;
    imageStore(luma, p, vec4(dot(c, vec3(0.25, 0.5, 0.25))));
}
