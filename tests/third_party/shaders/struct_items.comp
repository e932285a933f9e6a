#version 450
// An array of structs in and out: each item a (value, weight) pair.
layout(local_size_x = 64) in;
struct Item { float value; float weight; };
layout(std430, binding = 0) readonly buffer Items { Item items[]; };
layout(std430, binding = 1) writeonly buffer Out { Item outputs[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    Item it = items[i];
    outputs[i].value = it.value * it.weight;
    outputs[i].weight = it.weight + 1.0;
}
