"""What every Vulkan 1.3 device guarantees: the shipped ``baseline``.

Source: the Vulkan 1.3 specification, chapter "Limits", table "Required Limits" (the
minimum every implementation reports for a max-type limit, the maximum for a min-type
one), and chapter "Features", section "Feature Requirements" (the features a Vulkan 1.3
implementation must support). Nothing optional: no ``shaderFloat64``, ``shaderInt64``,
``shaderInt16``, ``shaderFloat16``, ``shaderInt8``, no 8/16-bit storage, no extension.
"""

from __future__ import annotations

from . import Requirements

VULKAN_1_3 = ("the Vulkan 1.3 specification: the \"Required Limits\" table of the Limits "
              "chapter and the \"Feature Requirements\" section of the Features chapter")

BASELINE = Requirements(
    name="baseline", profile="baseline", label="Vulkan 1.3 minimum",
    block="vulkan13_minimum",
    summary="Vulkan 1.3 minimum: required limits, no optional feature, no extension",
    origin=VULKAN_1_3,
    api_version="1.3.0",
    limits={
        "maxImageDimension1D": 4096,
        "maxImageDimension2D": 4096,
        "maxImageDimension3D": 256,
        "maxImageDimensionCube": 4096,
        "maxImageArrayLayers": 256,
        "maxTexelBufferElements": 65536,
        "maxUniformBufferRange": 16384,
        "maxStorageBufferRange": 2 ** 27,
        "maxPushConstantsSize": 128,
        "maxMemoryAllocationCount": 4096,
        "maxBoundDescriptorSets": 4,
        "maxPerStageDescriptorSamplers": 16,
        "maxPerStageDescriptorUniformBuffers": 12,
        "maxPerStageDescriptorStorageBuffers": 4,
        "maxPerStageDescriptorSampledImages": 16,
        "maxPerStageDescriptorStorageImages": 4,
        "maxPerStageResources": 128,
        "maxDescriptorSetSamplers": 96,
        "maxDescriptorSetUniformBuffers": 72,
        "maxDescriptorSetStorageBuffers": 24,
        "maxDescriptorSetSampledImages": 96,
        "maxDescriptorSetStorageImages": 24,
        "maxComputeSharedMemorySize": 16384,
        "maxComputeWorkGroupCount": [65535, 65535, 65535],
        "maxComputeWorkGroupInvocations": 128,
        "maxComputeWorkGroupSize": [128, 128, 64],
        "minStorageBufferOffsetAlignment": 256,
        "minUniformBufferOffsetAlignment": 256,
    },
    properties={
        "VkPhysicalDeviceVulkan11Properties": {
            "subgroupSize": 1,
            "subgroupSupportedStages": ["VK_SHADER_STAGE_COMPUTE_BIT"],
            "subgroupSupportedOperations": ["VK_SUBGROUP_FEATURE_BASIC_BIT"],
            "maxPerSetDescriptors": 1024,
            "maxMemoryAllocationSize": 2 ** 30},
        "VkPhysicalDeviceVulkan13Properties": {
            "maxBufferSize": 2 ** 30, "maxInlineUniformBlockSize": 256},
    },
    features={
        "VkPhysicalDeviceFeatures": ("robustBufferAccess",),
        "VkPhysicalDeviceVulkan11Features": ("multiview",),
        "VkPhysicalDeviceVulkan12Features": (
            "uniformBufferStandardLayout", "subgroupBroadcastDynamicId",
            "imagelessFramebuffer", "separateDepthStencilLayouts", "hostQueryReset",
            "timelineSemaphore", "shaderSubgroupExtendedTypes", "vulkanMemoryModel",
            "vulkanMemoryModelDeviceScope", "bufferDeviceAddress"),
        "VkPhysicalDeviceVulkan13Features": (
            "robustImageAccess", "inlineUniformBlock", "pipelineCreationCacheControl",
            "privateData", "shaderDemoteToHelperInvocation", "shaderTerminateInvocation",
            "subgroupSizeControl", "computeFullSubgroups", "synchronization2",
            "shaderZeroInitializeWorkgroupMemory", "dynamicRendering",
            "shaderIntegerDotProduct", "maintenance4"),
    },
)
