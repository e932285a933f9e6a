#version 440 core
// MNN style: sizes in a uniform buffer, grid-stride over the total
layout(std430) buffer;
layout(set=0, binding=0) writeonly buffer destBuffer { float data[]; } uOutput;
layout(set=0, binding=1) readonly buffer sourceBuffer { float data[]; } uInput;
layout(set=0, binding=2) uniform constBuffer {
    ivec4 size;
    vec4 bound;
} uConst;
layout (local_size_x = 256, local_size_y = 1, local_size_z = 1) in;
void main() {
    int total = uConst.size.x;
    for (int i = int(gl_GlobalInvocationID.x); i < total; i += int(gl_NumWorkGroups.x * gl_WorkGroupSize.x)) {
        uOutput.data[i] = clamp(uInput.data[i], uConst.bound.x, uConst.bound.y);
    }
}
