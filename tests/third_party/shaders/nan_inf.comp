#version 450
// log and reciprocal: negative inputs give NaN, zeros give inf, as numpy does.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Log { float lg[]; };
layout(binding = 2) writeonly buffer Rcp { float rcp[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    lg[i] = log(x[i]);
    rcp[i] = 1.0 / x[i];
}
