module {
  func.func @main(%arg0: tensor<1x256xf32>) -> tensor<1x256xf32> {
    %0 = tosa.custom %arg0 {domain_name = "com.arm.VulkanCustomShader", implementation_attrs = "{\"entry_point\": \"main\", \"workgroup_sizes\": [4, 1, 1], \"shader_language\": \"GLSL\", \"shader_code\": \"// Leaky ReLU on float32: y = x for x > 0, else 0.01 x (NaN stays NaN, -0.0 stays -0.0).\\n#version 460\\nlayout(local_size_x = 64) in;\\nlayout(set = 0, binding = 0) readonly buffer X { float x[]; };\\nlayout(set = 0, binding = 1) writeonly buffer Y { float y[]; };\\nvoid main() {\\n    uint i = gl_GlobalInvocationID.x;\\n    float v = x[i];\\n    y[i] = v > 0.0 ? v : 0.01 * v;\\n}\\n\", \"input_0_vkformat\": \"VK_FORMAT_R32_SFLOAT\", \"input_0_vkdescriptortype\": \"VK_DESCRIPTOR_TYPE_STORAGE_BUFFER\", \"input_0_type\": \"Buffer\", \"input_0_binding\": 0, \"input_0_descriptorset\": 0, \"output_0_vkformat\": \"VK_FORMAT_R32_SFLOAT\", \"output_0_vkdescriptortype\": \"VK_DESCRIPTOR_TYPE_STORAGE_BUFFER\", \"output_0_type\": \"Buffer\", \"output_0_binding\": 1, \"output_0_descriptorset\": 0}", operator_name = "leaky_relu"} : (tensor<1x256xf32>) -> tensor<1x256xf32>
    return %0 : tensor<1x256xf32>
  }
}
