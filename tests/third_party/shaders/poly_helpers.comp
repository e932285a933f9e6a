#version 450
// Helper functions and a loop over a constant: a polynomial in Horner form and a
// smooth clamp, applied per element.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
const int DEGREE = 4;
const float COEFFS[DEGREE + 1] = float[](0.5, -1.0, 0.25, 0.125, -0.0625);

float horner(float t) {
    float acc = COEFFS[DEGREE];
    for (int k = DEGREE - 1; k >= 0; --k)
        acc = acc * t + COEFFS[k];
    return acc;
}

float soft_clamp(float v, float limit) {
    return limit * tanh(v / limit);
}

uint element_index() {
    return gl_GlobalInvocationID.x;
}

void main() {
    uint i = element_index();
    y[i] = soft_clamp(horner(x[i]), 3.0);
}
