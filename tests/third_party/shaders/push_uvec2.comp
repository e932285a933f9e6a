#version 450
// A 2-D problem size and a vec2 scale in push constants; guarded by the size.
layout(local_size_x = 16, local_size_y = 16) in;
layout(push_constant) uniform Params { uvec2 size; vec2 scale; } params;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    if (g.x >= params.size.x || g.y >= params.size.y) return;
    uint i = g.y * params.size.x + g.x;
    y[i] = x[i] * params.scale.x + float(g.y) * params.scale.y;
}
