"""Android: the 2022 baseline and the minimum requirements of Android 15 and 16.

Sources: Google's Android Baseline 2022 profile (https://developer.android.com/ndk/guides/
graphics/android-baseline-profile; Khronos profile VP_ANDROID_baseline_2022), and the
Vulkan minimum requirements of Android 15 and Android 16 (the Android Compatibility
Definition Document, section 7.1.4.2 "Vulkan"; Google's profiles VP_ANDROID_15_minimums
and VP_ANDROID_16_minimums). Android 15 builds on the 2022 baseline and Android 16 on
Android 15. Listed: what a compute shader can run into; requirements of graphics-only
functionality (and the alternatives among them) are left out.
"""

from __future__ import annotations

from . import Requirements

BASELINE_2022 = Requirements(
    name="android-baseline-2022", profile="VP_ANDROID_baseline_2022",
    label="Android Baseline 2022",
    summary="Android Baseline 2022: Vulkan 1.1 phones and tablets, the Vulkan minimum "
            "limits, 16-bit integers, no subgroup operations listed",
    origin="Google's Android Baseline 2022 profile (https://developer.android.com/ndk/"
           "guides/graphics/android-baseline-profile; Khronos profile "
           "VP_ANDROID_baseline_2022)",
    api_version="1.1.106",
    limits={
        "maxImageDimension1D": 4096,
        "maxImageDimension2D": 4096,
        "maxImageDimension3D": 512,
        "maxImageDimensionCube": 4096,
        "maxImageArrayLayers": 256,
        "maxTexelBufferElements": 65536,
        "maxUniformBufferRange": 16384,
        "maxStorageBufferRange": 134217728,
        "maxPushConstantsSize": 128,
        "maxBoundDescriptorSets": 4,
        "maxPerStageDescriptorSamplers": 16,
        "maxPerStageDescriptorUniformBuffers": 12,
        "maxPerStageDescriptorStorageBuffers": 4,
        "maxPerStageDescriptorSampledImages": 16,
        "maxPerStageDescriptorStorageImages": 4,
        "maxPerStageResources": 44,
        "maxDescriptorSetSamplers": 48,
        "maxDescriptorSetUniformBuffers": 36,
        "maxDescriptorSetStorageBuffers": 24,
        "maxDescriptorSetSampledImages": 48,
        "maxDescriptorSetStorageImages": 12,
        "maxComputeSharedMemorySize": 16384,
        "maxComputeWorkGroupCount": [65535, 65535, 65535],
        "maxComputeWorkGroupInvocations": 128,
        "maxComputeWorkGroupSize": [128, 128, 64],
        "minStorageBufferOffsetAlignment": 256,
        "minUniformBufferOffsetAlignment": 256,
        "minTexelBufferOffsetAlignment": 256,
    },
    features={
        "VkPhysicalDeviceFeatures": (
            "shaderInt16", "shaderUniformBufferArrayDynamicIndexing",
            "shaderSampledImageArrayDynamicIndexing",
            "shaderStorageBufferArrayDynamicIndexing",
            "shaderStorageImageArrayDynamicIndexing"),
        "VkPhysicalDeviceVariablePointersFeatures": ("variablePointersStorageBuffer",
                                                     "variablePointers"),
        "VkPhysicalDeviceShaderDrawParametersFeatures": ("shaderDrawParameters",),
    },
    extensions=("VK_KHR_storage_buffer_storage_class", "VK_KHR_variable_pointers"),
)

ANDROID_15 = Requirements(
    name="android-15", profile="VP_ANDROID_15_minimums",
    label="Vulkan minimum requirements for Android 15",
    summary="Android 15 minimum: Vulkan 1.3, the 2022 baseline plus float16/int8 "
            "arithmetic, 8/16-bit storage, subgroup arithmetic",
    origin="the Vulkan requirements of Android 15 (Android 15 Compatibility Definition "
           "Document, section 7.1.4.2; Google's profile VP_ANDROID_15_minimums)",
    api_version="1.3.273", builds_on="VP_ANDROID_baseline_2022",
    limits={
        "maxPerStageDescriptorSamplers": 128,
        "maxPerStageDescriptorUniformBuffers": 13,
        "maxPerStageDescriptorStorageBuffers": 12,
        "maxPerStageDescriptorSampledImages": 128,
    },
    properties={
        "VkPhysicalDeviceVulkan11Properties": {
            "subgroupSupportedOperations": [
                "VK_SUBGROUP_FEATURE_BASIC_BIT", "VK_SUBGROUP_FEATURE_VOTE_BIT",
                "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT", "VK_SUBGROUP_FEATURE_BALLOT_BIT",
                "VK_SUBGROUP_FEATURE_SHUFFLE_BIT",
                "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT"]},
    },
    features={
        "VkPhysicalDeviceFeatures": ("shaderImageGatherExtended",
                                     "shaderStorageImageReadWithoutFormat",
                                     "shaderStorageImageWriteWithoutFormat"),
        "VkPhysicalDeviceVulkan12Features": ("shaderFloat16", "shaderInt8"),
        "VkPhysicalDevice8BitStorageFeatures": ("storageBuffer8BitAccess",),
        "VkPhysicalDevice16BitStorageFeatures": ("storageBuffer16BitAccess",),
    },
    extensions=("VK_KHR_shader_float16_int8", "VK_KHR_16bit_storage"),
)

ANDROID_16 = Requirements(
    name="android-16", profile="VP_ANDROID_16_minimums",
    label="Vulkan minimum requirements for Android 16",
    summary="Android 16 minimum: Android 15 plus 256 invocations, 8192-texel images, "
            "integer dot products, subgroup rotate",
    origin="the Vulkan requirements of Android 16 (Android 16 Compatibility Definition "
           "Document, section 7.1.4.2; Google's profile VP_ANDROID_16_minimums)",
    api_version="1.3.276", builds_on="VP_ANDROID_15_minimums",
    limits={
        "maxImageDimension1D": 8192,
        "maxImageDimension2D": 8192,
        "maxImageDimensionCube": 8192,
        "maxImageArrayLayers": 2048,
        "maxUniformBufferRange": 65536,
        "maxPerStageDescriptorUniformBuffers": 15,
        "maxPerStageResources": 200,
        "maxDescriptorSetUniformBuffers": 90,
        "maxDescriptorSetStorageBuffers": 96,
        "maxComputeWorkGroupInvocations": 256,
        "maxComputeWorkGroupSize": [256, 256, 64],
    },
    properties={
        "VkPhysicalDeviceVulkan11Properties": {
            "subgroupSupportedStages": ["VK_SHADER_STAGE_COMPUTE_BIT"]},
    },
    features={
        "VkPhysicalDeviceFeatures": ("shaderInt16",),
        "VkPhysicalDeviceShaderIntegerDotProductFeatures": ("shaderIntegerDotProduct",),
    },
    extensions=("VK_KHR_8bit_storage", "VK_KHR_shader_expect_assume",
                "VK_KHR_shader_float_controls2", "VK_KHR_shader_maximal_reconvergence",
                "VK_KHR_shader_subgroup_rotate",
                "VK_KHR_shader_subgroup_uniform_control_flow"),
)

TARGETS = (BASELINE_2022, ANDROID_15, ANDROID_16)
