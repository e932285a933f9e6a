#version 450
// An unsigned integer image: a per-pixel hash of the coordinates and the value.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, r32ui) uniform readonly uimage2D src;
layout(binding = 1, r32ui) uniform writeonly uimage2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint v = imageLoad(src, p).x;
    imageStore(dst, p, uvec4(v * 2654435761u + uint(p.x) * 31u + uint(p.y)));
}
