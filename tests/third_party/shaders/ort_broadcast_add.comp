#version 450
// ONNX-runtime-like broadcasting binary op: rank-4 shapes and strides as uvec4 push constants
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Shapes {
    uvec4 out_shape;
    uvec4 a_strides;
    uvec4 b_strides;
    uint size;
} sh;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= sh.size) return;
    uint rem = i;
    uvec4 idx;
    idx.w = rem % sh.out_shape.w; rem /= sh.out_shape.w;
    idx.z = rem % sh.out_shape.z; rem /= sh.out_shape.z;
    idx.y = rem % sh.out_shape.y; rem /= sh.out_shape.y;
    idx.x = rem;
    uint ai = uint(dot(vec4(idx * sh.a_strides), vec4(1)));
    uint bi = idx.x * sh.b_strides.x + idx.y * sh.b_strides.y + idx.z * sh.b_strides.z + idx.w * sh.b_strides.w;
    c[i] = a[ai] + b[bi];
}
