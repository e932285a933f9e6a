#version 450
// r32i image in, r32i image out: absolute value minus 7.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, r32i) uniform readonly iimage2D src;
layout(binding = 1, r32i) uniform writeonly iimage2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(dst, p, ivec4(abs(imageLoad(src, p).x) - 7));
}
