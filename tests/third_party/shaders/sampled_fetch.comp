#version 450
// A sampled image read with texelFetch (no filtering), written to a buffer row-major.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) writeonly buffer Out { vec4 o[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    o[p.y * 16 + p.x] = texelFetch(tex, p, 0) * 2.0;
}
