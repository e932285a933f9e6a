"""The target-device rules (VKS7xx): what the shader needs that a device may not have.

Each rule is checked once per target device; the diagnostics carry the target's name
(``Diagnostic.target``) and their messages name the capability or limit, the value the
op needs, the value the device has and the profile that said so.
"""

from __future__ import annotations

from ..rule_registry import rule

CAPABILITY = rule(
    "VKS700",
    summary="The shader declares a SPIR-V capability that the target device does not "
            "enable.",
    why="Creating the pipeline fails (or the driver crashes) when the shader module "
        "declares an `OpCapability` whose Vulkan feature, extension or version the device "
        "lacks: `Float64` needs `shaderFloat64`, `Int64` needs `shaderInt64`, "
        "`StorageBuffer8BitAccess` needs `storageBuffer8BitAccess`, `Float16` needs "
        "`shaderFloat16`. The mapping is the Vulkan registry's `<spirvcapability>` table.",
    bad="#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require\n"
        "double x;  // OpCapability Float64, target without shaderFloat64",
    good="float x;  // or target a device whose profile has shaderFloat64 = true",
)

EXTENSION = rule(
    "VKS701",
    summary="The shader uses a SPIR-V extension that the target device does not support.",
    why="Each `OpExtension` is enabled by a Vulkan version or device extension (the "
        "registry's `<spirvextension>` table); on a device without it the shader module "
        "is rejected.",
    bad='OpExtension "SPV_KHR_8bit_storage"  // target: Vulkan 1.1 without '
        "VK_KHR_8bit_storage",
    good='OpExtension "SPV_KHR_8bit_storage"  // target: Vulkan 1.2 or VK_KHR_8bit_storage',
)

LOCAL_SIZE = rule(
    "VKS702",
    summary="A dimension of the local workgroup size exceeds the device's "
            "`maxComputeWorkGroupSize`.",
    why="`vkCreateComputePipelines` requires each of `local_size_x/y/z` to be at most "
        "the device's `maxComputeWorkGroupSize`; Vulkan 1.3 only guarantees (128, 128, 64).",
    bad="layout(local_size_x = 256) in;  // target maxComputeWorkGroupSize[0] = 128",
    good="layout(local_size_x = 128) in;",
)

INVOCATIONS = rule(
    "VKS703",
    summary="The local workgroup size has more invocations than the device's "
            "`maxComputeWorkGroupInvocations`.",
    why="The product `local_size_x * local_size_y * local_size_z` must not exceed "
        "`maxComputeWorkGroupInvocations` (only 128 guaranteed by Vulkan 1.3).",
    bad="layout(local_size_x = 16, local_size_y = 16) in;  // 256 > 128",
    good="layout(local_size_x = 16, local_size_y = 8) in;   // 128",
)

SHARED_MEMORY = rule(
    "VKS704",
    summary="The shader's `Workgroup` (shared) variables need more bytes than the "
            "device's `maxComputeSharedMemorySize`.",
    why="All `shared` variables of a compute shader together must fit in "
        "`maxComputeSharedMemorySize` (16 KiB guaranteed by Vulkan 1.3); larger tiles "
        "fail at pipeline creation.",
    bad="shared float tile[64 * 128];  // 32768 bytes > 16384",
    good="shared float tile[64 * 64];   // 16384 bytes",
)

PUSH_CONSTANTS = rule(
    "VKS705",
    summary="The push-constant block is larger than the device's `maxPushConstantsSize`.",
    why="A push-constant range must end within `maxPushConstantsSize` (128 bytes "
        "guaranteed); a larger block cannot be pushed.",
    bad="layout(push_constant) uniform P { mat4 a; mat4 b; vec4 c; } p;  // 144 bytes",
    good="layout(push_constant) uniform P { mat4 a; vec4 c; } p;  // 80 bytes",
)

DISPATCH = rule(
    "VKS706",
    summary="`workgroup_sizes`, dispatched as a workgroup count, exceeds the device's "
            "`maxComputeWorkGroupCount`.",
    why="The reference runtime calls `vkCmdDispatch` with `workgroup_sizes` as the number "
        "of workgroups; each count must be at most `maxComputeWorkGroupCount` (65535 "
        "guaranteed per dimension).",
    bad='"workgroup_sizes": [100000, 1, 1]',
    good='"workgroup_sizes": [50000, 2, 1]',
)

BUFFER_RANGE = rule(
    "VKS707",
    summary="A storage buffer bound to the op is larger than the device's "
            "`maxStorageBufferRange`.",
    why="A storage-buffer descriptor can only cover `maxStorageBufferRange` bytes (2^27 "
        "guaranteed); when the model gives the tensor's shape, its bytes (elements times "
        "the format's texel size) are known before anything runs.",
    bad="tensor<8192x8192xf32> bound as VK_DESCRIPTOR_TYPE_STORAGE_BUFFER  // 256 MiB",
    good="split the tensor, or bind it as VK_DESCRIPTOR_TYPE_TENSOR_ARM",
)

FORMAT = rule(
    "VKS708",
    summary="The device does not support the resource's `vkformat` for the way the "
            "descriptor type uses it.",
    why="A storage image needs `VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT`, a sampled image "
        "`VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT`, a texel buffer the matching buffer "
        "feature. Checked when the target's profile lists formats.",
    bad='"input_0_vkformat": "VK_FORMAT_R8G8B8_UNORM"  // storage image: no STORAGE_IMAGE',
    good='"input_0_vkformat": "VK_FORMAT_R8G8B8A8_UNORM"',
)

TENSOR = rule(
    "VKS709",
    summary="A tensor resource exceeds the device's `VK_ARM_tensors` limits (rank, "
            "elements, elements per dimension), or the device has no `VK_ARM_tensors`.",
    why="`VkPhysicalDeviceTensorPropertiesARM` bounds the tensors a device can create: "
        "`maxTensorDimensionCount`, `maxTensorElements`, `maxPerDimensionTensorElements`.",
    bad="a rank-8 tensor on a device whose maxTensorDimensionCount is 6",
    good="reshape to the device's rank, or target a device with larger tensor limits",
)

DESCRIPTORS = rule(
    "VKS710",
    summary="The op uses more descriptor sets, or more descriptors of one kind in the "
            "compute stage, than the device allows.",
    why="`maxBoundDescriptorSets` bounds the highest set index + 1, and "
        "`maxPerStageDescriptorStorageBuffers`, `...UniformBuffers`, `...StorageImages`, "
        "`...SampledImages` (and VK_ARM_tensors' `maxPerStageDescriptorSetStorageTensors`) "
        "bound the descriptors of each kind (Vulkan 1.3 guarantees only 4 storage buffers "
        "per stage).",
    bad="six storage buffers in one shader  // target: 4 per stage",
    good="pack the data into four buffers, or target a device that allows six",
)

IMAGE_EXTENT = rule(
    "VKS711",
    summary="An image resource is wider, higher or deeper than the device's "
            "`maxImageDimension1D`/`2D`/`3D`.",
    why="An image cannot be created with an extent beyond the device's limit for its "
        "dimensionality (Vulkan 1.3 guarantees 4096 for 1-D and 2-D images and only 256 "
        "for 3-D ones): on phones the run fails or, through a runtime that clamps, reads "
        "and writes the wrong texels. The extent is known when the model gives the "
        "tensor's static shape (NHWC: height H, width W) and the shader declares the "
        "image's dimensionality.",
    bad="tensor<1x8192x8192x4xf32> bound to an image2D  // target maxImageDimension2D 4096",
    good="tile the image, or target a device whose maxImageDimension2D is 8192",
)

SPIRV_VERSION = rule(
    "VKS712",
    summary="The SPIR-V module's version is newer than the target device's Vulkan version "
            "accepts.",
    why="Vulkan 1.0 accepts SPIR-V 1.0, 1.1 up to SPIR-V 1.3, 1.2 up to 1.5, 1.3 and "
        "later up to 1.6 (1.4 also with VK_KHR_spirv_1_4); `vkCreateShaderModule` "
        "refuses a newer module. `glslc --target-env vulkan1.3` writes SPIR-V 1.6, which "
        "a Vulkan 1.1 phone (Android's 2022 baseline) cannot load.",
    bad="glslc --target-env vulkan1.3  // target: Vulkan 1.1 device",
    good="glslc --target-env vulkan1.1  // SPIR-V 1.3",
)

STAGES = rule(
    "VKS713",
    summary="The shader uses subgroup operations or cooperative matrices, but the target "
            "device supports them in other shader stages than compute.",
    why="`subgroupSupportedStages` (and for cooperative matrices "
        "`cooperativeMatrixSupportedStages`) lists the stages where a device runs them; "
        "a compute shader needs `VK_SHADER_STAGE_COMPUTE_BIT` in that list.",
    bad="subgroupAdd(x)  // target subgroupSupportedStages = [FRAGMENT]",
    good="subgroupAdd(x)  // target subgroupSupportedStages includes COMPUTE",
)

COOPERATIVE_MATRIX = rule(
    "VKS714",
    summary="A cooperative matrix type of the shader has a shape, component type or scope "
            "that the target device lists no `VkCooperativeMatrixPropertiesKHR` entry for.",
    why="A device runs cooperative matrices only in the combinations "
        "`vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR` reports (M x N x K, A/B/C/"
        "result component types, scope). Checked when the target's profile lists them "
        "(`cooperativeMatrixProperties` in a capability block).",
    bad="coopmat<float16_t, gl_ScopeSubgroup, 16, 8, gl_MatrixUseA>  // device: 16x16x16 "
        "only",
    good="coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>",
)

UNUSABLE_PROFILE = rule(
    "VKS902",
    summary="A target-device profile cannot be used: not JSON, not a Vulkan Profiles "
            "document, a block or a profile it builds on that is missing, or profiles "
            "that build on each other in a cycle.",
    why="Checking against a profile that is read wrong gives wrong verdicts; the check "
        "stops with exit code 2 and says which file and profile to mend.",
    bad='"profiles": {"A": {"profiles": ["B"], ...}, "B": {"profiles": ["A"], ...}}',
    good='"profiles": {"A": {"profiles": ["B"], ...}, "B": {...}}',
)
