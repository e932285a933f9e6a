// A plain TOSA op feeding a custom shader op: y = relu(a + b).
module {
  func.func @main(%a: tensor<1x64xf32>, %b: tensor<1x64xf32>) -> tensor<1x64xf32> {
    %0 = tosa.add %a, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %1 = tosa.custom %0 {domain_name = "com.arm.VulkanCustomShader", implementation_attrs = "{\"entry_point\": \"main\", \"workgroup_sizes\": [1, 1, 1], \"shader_language\": \"GLSL\", \"shader_code\": \"// ReLU over float32 storage buffers: the custom op after a plain tosa.add.\\n#version 460\\nlayout(local_size_x = 64) in;\\nlayout(set = 0, binding = 0) readonly buffer In { float x[]; };\\nlayout(set = 0, binding = 1) writeonly buffer Out { float y[]; };\\nvoid main() {\\n    uint i = gl_GlobalInvocationID.x;\\n    y[i] = max(x[i], 0.0);\\n}\\n\", \"input_0_vkformat\": \"VK_FORMAT_R32_SFLOAT\", \"input_0_vkdescriptortype\": \"VK_DESCRIPTOR_TYPE_STORAGE_BUFFER\", \"input_0_type\": \"Buffer\", \"input_0_binding\": 0, \"input_0_descriptorset\": 0, \"output_0_vkformat\": \"VK_FORMAT_R32_SFLOAT\", \"output_0_vkdescriptortype\": \"VK_DESCRIPTOR_TYPE_STORAGE_BUFFER\", \"output_0_type\": \"Buffer\", \"output_0_binding\": 1, \"output_0_descriptorset\": 0}", operator_name = "relu"} : (tensor<1x64xf32>) -> tensor<1x64xf32>
    return %1 : tensor<1x64xf32>
  }
}
