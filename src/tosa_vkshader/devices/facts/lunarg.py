"""LunarG's desktop baselines 2024 and 2026.

Source: LunarG's Desktop Baseline profiles VP_LUNARG_desktop_baseline_2024 and
VP_LUNARG_desktop_baseline_2026 (the capabilities common to the desktop GPUs and drivers
LunarG surveyed for that year; described in the Vulkan SDK's profiles documentation,
https://vulkan.lunarg.com/doc/sdk/latest/windows/profiles_definitions.html). Listed:
what a compute shader can run into.
"""

from __future__ import annotations

from . import Requirements

_ORIGIN = ("LunarG's Desktop Baseline {0} profile (VP_LUNARG_desktop_baseline_{0}; "
           "https://vulkan.lunarg.com/doc/sdk/latest/windows/profiles_definitions.html)")

_DESCRIPTOR_INDEXING = (
    "runtimeDescriptorArray", "shaderSampledImageArrayNonUniformIndexing",
    "shaderStorageBufferArrayNonUniformIndexing", "shaderStorageImageArrayNonUniformIndexing",
    "shaderStorageTexelBufferArrayDynamicIndexing",
    "shaderStorageTexelBufferArrayNonUniformIndexing",
    "shaderUniformTexelBufferArrayDynamicIndexing",
    "shaderUniformTexelBufferArrayNonUniformIndexing")
_COMMON_LIMITS = {
    "maxImageDimension1D": 16384,
    "maxImageDimension2D": 16384,
    "maxImageDimension3D": 2048,
    "maxImageDimensionCube": 16384,
    "maxImageArrayLayers": 2048,
    "maxTexelBufferElements": 67108864,
    "maxUniformBufferRange": 65536,
    "maxBoundDescriptorSets": 8,
    "maxPerStageDescriptorSamplers": 16,
    "maxPerStageDescriptorStorageBuffers": 31,
    "maxDescriptorSetSamplers": 80,
    "maxDescriptorSetUniformBuffers": 155,
    "maxDescriptorSetStorageBuffers": 155,
    "maxComputeSharedMemorySize": 32768,
    "maxComputeWorkGroupCount": [65535, 65535, 65535],
    "maxComputeWorkGroupInvocations": 1024,
    "maxComputeWorkGroupSize": [1024, 1024, 64],
    "minStorageBufferOffsetAlignment": 64,
    "minTexelBufferOffsetAlignment": 64,
}
_COMMON_FEATURES = {
    "VkPhysicalDeviceFeatures": (
        "shaderImageGatherExtended", "shaderInt16",
        "shaderSampledImageArrayDynamicIndexing", "shaderStorageBufferArrayDynamicIndexing",
        "shaderStorageImageArrayDynamicIndexing", "shaderStorageImageWriteWithoutFormat",
        "shaderUniformBufferArrayDynamicIndexing"),
    "VkPhysicalDeviceVulkan11Features": (
        "shaderDrawParameters", "storageBuffer16BitAccess",
        "uniformAndStorageBuffer16BitAccess", "variablePointers",
        "variablePointersStorageBuffer"),
}
_COMMON_EXTENSIONS = (
    "VK_EXT_descriptor_indexing", "VK_EXT_shader_atomic_float",
    "VK_EXT_shader_demote_to_helper_invocation", "VK_EXT_shader_viewport_index_layer",
    "VK_KHR_16bit_storage", "VK_KHR_8bit_storage", "VK_KHR_buffer_device_address",
    "VK_KHR_device_group", "VK_KHR_format_feature_flags2", "VK_KHR_multiview",
    "VK_KHR_shader_draw_parameters", "VK_KHR_shader_float_controls",
    "VK_KHR_shader_non_semantic_info", "VK_KHR_storage_buffer_storage_class",
    "VK_KHR_variable_pointers")

DESKTOP_2024 = Requirements(
    name="desktop-baseline-2024", profile="VP_LUNARG_desktop_baseline_2024",
    label="LunarG Desktop Baseline 2024",
    summary="LunarG desktop baseline 2024: Vulkan 1.2 desktop GPUs, 1024 invocations, "
            "32 KiB shared memory, 8/16-bit storage, no float16",
    origin=_ORIGIN.format(2024),
    api_version="1.2.197",
    limits={
        **_COMMON_LIMITS,
        "maxStorageBufferRange": 1073741820,
        "maxPushConstantsSize": 128,
        "maxPerStageDescriptorUniformBuffers": 15,
        "maxPerStageDescriptorSampledImages": 128,
        "maxPerStageDescriptorStorageImages": 8,
        "maxPerStageResources": 159,
        "maxDescriptorSetSampledImages": 640,
        "maxDescriptorSetStorageImages": 40,
        "minUniformBufferOffsetAlignment": 256,
    },
    properties={
        "VkPhysicalDeviceVulkan11Properties": {
            "subgroupSize": 32,
            "subgroupSupportedStages": ["VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT",
                                        "VK_SHADER_STAGE_FRAGMENT_BIT",
                                        "VK_SHADER_STAGE_COMPUTE_BIT"],
            "subgroupSupportedOperations": [
                "VK_SUBGROUP_FEATURE_BASIC_BIT", "VK_SUBGROUP_FEATURE_VOTE_BIT",
                "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT", "VK_SUBGROUP_FEATURE_BALLOT_BIT",
                "VK_SUBGROUP_FEATURE_SHUFFLE_BIT", "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT",
                "VK_SUBGROUP_FEATURE_QUAD_BIT"],
            "maxPerSetDescriptors": 1024,
            "maxMemoryAllocationSize": 2147483648},
    },
    features={
        **_COMMON_FEATURES,
        "VkPhysicalDeviceVulkan12Features": (
            *_DESCRIPTOR_INDEXING, "bufferDeviceAddress", "shaderInt8",
            "storageBuffer8BitAccess", "uniformAndStorageBuffer8BitAccess"),
    },
    extensions=(*_COMMON_EXTENSIONS, "VK_EXT_shader_subgroup_ballot",
                "VK_EXT_shader_subgroup_vote"),
)

DESKTOP_2026 = Requirements(
    name="desktop-baseline-2026", profile="VP_LUNARG_desktop_baseline_2026",
    label="LunarG Desktop Baseline 2026",
    summary="LunarG desktop baseline 2026: Vulkan 1.4 desktop GPUs, 1024 invocations, "
            "int64, integer dot products; no subgroup arithmetic, no float16",
    origin=_ORIGIN.format(2026),
    api_version="1.4.304",
    limits={
        **_COMMON_LIMITS,
        "maxStorageBufferRange": 134217728,
        "maxPushConstantsSize": 256,
        "maxPerStageDescriptorUniformBuffers": 31,
        "maxPerStageDescriptorSampledImages": 200,
        "maxPerStageDescriptorStorageImages": 16,
        "maxPerStageResources": 200,
        "maxDescriptorSetSampledImages": 1280,
        "maxDescriptorSetStorageImages": 144,
        "minUniformBufferOffsetAlignment": 64,
    },
    properties={
        "VkPhysicalDeviceVulkan11Properties": {
            "subgroupSize": 4,
            "subgroupSupportedStages": ["VK_SHADER_STAGE_FRAGMENT_BIT",
                                        "VK_SHADER_STAGE_COMPUTE_BIT",
                                        "VK_SHADER_STAGE_ALL_GRAPHICS"],
            "subgroupSupportedOperations": [
                "VK_SUBGROUP_FEATURE_BASIC_BIT", "VK_SUBGROUP_FEATURE_VOTE_BIT",
                "VK_SUBGROUP_FEATURE_BALLOT_BIT", "VK_SUBGROUP_FEATURE_SHUFFLE_BIT",
                "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT", "VK_SUBGROUP_FEATURE_QUAD_BIT"],
            "maxPerSetDescriptors": 1024,
            "maxMemoryAllocationSize": 2147483648},
        "VkPhysicalDeviceVulkan13Properties": {"maxBufferSize": 2147483648},
    },
    features={
        **_COMMON_FEATURES,
        "VkPhysicalDeviceFeatures": (*_COMMON_FEATURES["VkPhysicalDeviceFeatures"],
                                     "shaderInt64"),
        "VkPhysicalDeviceVulkan12Features": (
            *_DESCRIPTOR_INDEXING, "shaderUniformBufferArrayNonUniformIndexing",
            "bufferDeviceAddress", "shaderInt8", "storageBuffer8BitAccess",
            "uniformAndStorageBuffer8BitAccess", "vulkanMemoryModel",
            "vulkanMemoryModelDeviceScope"),
        "VkPhysicalDeviceVulkan13Features": ("shaderDemoteToHelperInvocation",
                                             "shaderIntegerDotProduct"),
    },
    extensions=(*_COMMON_EXTENSIONS, "VK_KHR_shader_integer_dot_product",
                "VK_KHR_shader_terminate_invocation", "VK_KHR_vulkan_memory_model"),
)

TARGETS = (DESKTOP_2024, DESKTOP_2026)
