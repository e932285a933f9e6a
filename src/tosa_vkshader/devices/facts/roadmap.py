"""The Khronos Roadmap milestones: Roadmap 2022, 2024 and 2026.

Source: the Vulkan specification, appendix "Roadmap Milestones", sections "Roadmap
2022", "Roadmap 2024" and "Roadmap 2026" (https://docs.vulkan.org/spec/latest/appendices/
roadmap.html), as published in the Khronos Vulkan-Profiles profiles VP_KHR_roadmap_2022,
VP_KHR_roadmap_2024 and VP_KHR_roadmap_2026. Each milestone includes the one before:
2022 requires Vulkan 1.3, 2024 adds to 2022, 2026 (Vulkan 1.4) adds to 2024. Listed: what
a compute shader can run into; graphics-only requirements are left out.
"""

from __future__ import annotations

from . import Requirements

_SPEC = ("the Vulkan specification, appendix \"Roadmap Milestones\", section \"{}\" "
         "(https://docs.vulkan.org/spec/latest/appendices/roadmap.html; Khronos profile "
         "{})")

ROADMAP_2022 = Requirements(
    name="roadmap-2022", profile="VP_KHR_roadmap_2022",
    label="Khronos Vulkan Roadmap 2022",
    summary="Khronos Roadmap 2022: Vulkan 1.3 with 256 invocations, full subgroup "
            "operations, descriptor indexing",
    origin=_SPEC.format("Roadmap 2022", "VP_KHR_roadmap_2022"),
    api_version="1.3.204", builds_on="baseline",
    limits={
        "maxImageDimension1D": 8192,
        "maxImageDimension2D": 8192,
        "maxImageDimensionCube": 8192,
        "maxImageArrayLayers": 2048,
        "maxUniformBufferRange": 65536,
        "maxPerStageDescriptorSamplers": 64,
        "maxPerStageDescriptorUniformBuffers": 15,
        "maxPerStageDescriptorStorageBuffers": 30,
        "maxPerStageDescriptorSampledImages": 200,
        "maxPerStageDescriptorStorageImages": 16,
        "maxPerStageResources": 200,
        "maxDescriptorSetSamplers": 576,
        "maxDescriptorSetUniformBuffers": 90,
        "maxDescriptorSetStorageBuffers": 96,
        "maxDescriptorSetSampledImages": 1800,
        "maxDescriptorSetStorageImages": 144,
        "maxComputeWorkGroupInvocations": 256,
        "maxComputeWorkGroupSize": [256, 256, 64],
    },
    properties={
        "VkPhysicalDeviceVulkan11Properties": {
            "subgroupSize": 4,
            "subgroupSupportedStages": ["VK_SHADER_STAGE_COMPUTE_BIT",
                                        "VK_SHADER_STAGE_FRAGMENT_BIT"],
            "subgroupSupportedOperations": [
                "VK_SUBGROUP_FEATURE_BASIC_BIT", "VK_SUBGROUP_FEATURE_VOTE_BIT",
                "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT", "VK_SUBGROUP_FEATURE_BALLOT_BIT",
                "VK_SUBGROUP_FEATURE_SHUFFLE_BIT", "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT",
                "VK_SUBGROUP_FEATURE_QUAD_BIT"]},
    },
    features={
        "VkPhysicalDeviceFeatures": (
            "shaderUniformBufferArrayDynamicIndexing",
            "shaderSampledImageArrayDynamicIndexing",
            "shaderStorageBufferArrayDynamicIndexing",
            "shaderStorageImageArrayDynamicIndexing"),
        "VkPhysicalDeviceVulkan12Features": (
            "shaderUniformTexelBufferArrayDynamicIndexing",
            "shaderStorageTexelBufferArrayDynamicIndexing",
            "shaderUniformBufferArrayNonUniformIndexing",
            "shaderSampledImageArrayNonUniformIndexing",
            "shaderStorageBufferArrayNonUniformIndexing",
            "shaderStorageImageArrayNonUniformIndexing",
            "shaderUniformTexelBufferArrayNonUniformIndexing",
            "shaderStorageTexelBufferArrayNonUniformIndexing",
            "runtimeDescriptorArray"),
    },
)

ROADMAP_2024 = Requirements(
    name="roadmap-2024", profile="VP_KHR_roadmap_2024",
    label="Khronos Vulkan Roadmap 2024",
    summary="Khronos Roadmap 2024: Roadmap 2022 plus 8/16-bit arithmetic and storage, "
            "subgroup rotate and quad control",
    origin=_SPEC.format("Roadmap 2024", "VP_KHR_roadmap_2024"),
    api_version="1.3.276", builds_on="VP_KHR_roadmap_2022",
    limits={"maxBoundDescriptorSets": 7},
    features={
        "VkPhysicalDeviceFeatures": ("shaderInt16", "shaderImageGatherExtended"),
        "VkPhysicalDeviceVulkan11Features": ("storageBuffer16BitAccess",
                                             "shaderDrawParameters"),
        "VkPhysicalDeviceVulkan12Features": ("shaderInt8", "shaderFloat16",
                                             "storageBuffer8BitAccess"),
        "VkPhysicalDeviceShaderQuadControlFeaturesKHR": ("shaderQuadControl",),
        "VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR": ("shaderSubgroupRotate",),
        "VkPhysicalDeviceShaderFloatControls2FeaturesKHR": ("shaderFloatControls2",),
        "VkPhysicalDeviceShaderExpectAssumeFeaturesKHR": ("shaderExpectAssume",),
    },
    extensions=("VK_KHR_shader_quad_control", "VK_KHR_shader_maximal_reconvergence",
                "VK_KHR_shader_subgroup_uniform_control_flow",
                "VK_KHR_shader_subgroup_rotate", "VK_KHR_shader_float_controls2",
                "VK_KHR_shader_expect_assume"),
)

ROADMAP_2026 = Requirements(
    name="roadmap-2026", profile="VP_KHR_roadmap_2026",
    label="Khronos Vulkan Roadmap 2026",
    summary="Khronos Roadmap 2026: Vulkan 1.4, Roadmap 2024 plus cooperative matrices, "
            "32 KiB shared memory, 200 storage buffers per stage",
    origin=_SPEC.format("Roadmap 2026", "VP_KHR_roadmap_2026"),
    api_version="1.4.328", builds_on="VP_KHR_roadmap_2024",
    limits={
        "maxPerStageDescriptorUniformBuffers": 200,
        "maxPerStageDescriptorStorageBuffers": 200,
        "maxDescriptorSetUniformBuffers": 1800,
        "maxDescriptorSetStorageBuffers": 1800,
        "maxComputeSharedMemorySize": 32768,
    },
    features={
        "VkPhysicalDeviceVulkan14Features": ("shaderSubgroupRotate", "shaderExpectAssume",
                                             "shaderFloatControls2"),
        "VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR": (
            "workgroupMemoryExplicitLayout",),
        "VkPhysicalDeviceComputeShaderDerivativesFeaturesKHR": (
            "computeDerivativeGroupLinear",),
        "VkPhysicalDeviceShaderUntypedPointersFeaturesKHR": ("shaderUntypedPointers",),
        "VkPhysicalDeviceCooperativeMatrixFeaturesKHR": ("cooperativeMatrix",),
    },
    extensions=("VK_KHR_cooperative_matrix", "VK_KHR_workgroup_memory_explicit_layout",
                "VK_KHR_compute_shader_derivatives", "VK_KHR_shader_untyped_pointers",
                "VK_KHR_shader_clock"),
)

TARGETS = (ROADMAP_2022, ROADMAP_2024, ROADMAP_2026)
