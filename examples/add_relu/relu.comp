// ReLU over float32 storage buffers: the custom op after a plain tosa.add.
#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = max(x[i], 0.0);
}
