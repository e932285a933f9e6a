// Common activations.
float gelu_tanh(float x) {
    return 0.5 * x * (1.0 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
}
float leaky_relu(float x, float slope) {
    return x >= 0.0 ? x : slope * x;
}
