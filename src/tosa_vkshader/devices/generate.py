"""Generate the shipped target-device profiles in ``devices/profiles/``.

``baseline.json``: what every Vulkan 1.3 device guarantees. Its origin is the Vulkan
1.3 specification: the minimum values of the "Required Limits" table and the features
the "Feature Requirements" section makes mandatory for 1.3; nothing optional (no
``shaderFloat64``, ``shaderInt64``, ``shaderInt16``, ``shaderFloat16``, ``shaderInt8``,
8/16-bit storage, no extensions). Only what a compute shader can run into is listed.

``lavapipe.json`` is this machine's Mesa lavapipe as ``run`` uses it, exported by the
devices command (which may use the runtime's device environment; this module may not):

    python -m tosa_vkshader.devices.generate            # rewrite baseline.json
    python -m tosa_vkshader.devices.generate --check    # exit 1 when baseline.json is stale
    tosa-vkshader devices --export src/tosa_vkshader/devices/profiles/lavapipe.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..generated import write_or_check

PROFILES_DIR = Path(__file__).with_name("profiles")
BASELINE_PATH = PROFILES_DIR / "baseline.json"
LAVAPIPE_PATH = PROFILES_DIR / "lavapipe.json"
SCHEMA = "https://schema.khronos.org/vulkan/profiles-0.8-latest.json"

# Vulkan 1.3 specification, "Limits" chapter, table "Required Limits": the minimum (for
# max* limits) every implementation reports. Compute-relevant rows only.
REQUIRED_LIMITS_1_3 = {
    "maxImageDimension1D": 4096,
    "maxImageDimension2D": 4096,
    "maxImageDimension3D": 256,
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
}

# Vulkan 1.3 specification, "Feature Requirements": features a 1.3 device must support.
REQUIRED_FEATURES_1_3 = {
    "VkPhysicalDeviceFeatures": {"robustBufferAccess": True},
    "VkPhysicalDeviceVulkan11Features": {"multiview": True},
    "VkPhysicalDeviceVulkan12Features": {
        "uniformBufferStandardLayout": True, "subgroupBroadcastDynamicId": True,
        "imagelessFramebuffer": True, "separateDepthStencilLayouts": True,
        "hostQueryReset": True, "timelineSemaphore": True,
        "shaderSubgroupExtendedTypes": True, "vulkanMemoryModel": True,
        "vulkanMemoryModelDeviceScope": True, "bufferDeviceAddress": True},
    "VkPhysicalDeviceVulkan13Features": {
        "robustImageAccess": True, "inlineUniformBlock": True,
        "pipelineCreationCacheControl": True, "privateData": True,
        "shaderDemoteToHelperInvocation": True, "shaderTerminateInvocation": True,
        "subgroupSizeControl": True, "computeFullSubgroups": True, "synchronization2": True,
        "shaderZeroInitializeWorkgroupMemory": True, "dynamicRendering": True,
        "shaderIntegerDotProduct": True, "maintenance4": True},
}

# Same chapter: the properties a compute shader depends on, at their minimum.
REQUIRED_PROPERTIES_1_3 = {
    "VkPhysicalDeviceVulkan11Properties": {
        "subgroupSize": 1,
        "subgroupSupportedStages": ["VK_SHADER_STAGE_COMPUTE_BIT"],
        "subgroupSupportedOperations": ["VK_SUBGROUP_FEATURE_BASIC_BIT"],
        "maxPerSetDescriptors": 1024,
        "maxMemoryAllocationSize": 2 ** 30},
    "VkPhysicalDeviceVulkan13Properties": {
        "maxBufferSize": 2 ** 30, "maxInlineUniformBlockSize": 256},
}


def render_baseline() -> str:
    document = {
        "$schema": SCHEMA,
        "capabilities": {
            "vulkan13_minimum": {
                "extensions": {},
                "features": REQUIRED_FEATURES_1_3,
                "properties": {
                    "VkPhysicalDeviceProperties": {"limits": REQUIRED_LIMITS_1_3},
                    **REQUIRED_PROPERTIES_1_3,
                },
            },
        },
        "profiles": {
            "baseline": {
                "version": 1,
                "api-version": "1.3.0",
                "label": "Vulkan 1.3 minimum",
                "description": "What every Vulkan 1.3 device guarantees: the required "
                               "limits at their minimum and the mandatory features, no "
                               "optional feature and no extension. GENERATED by "
                               "python -m tosa_vkshader.devices.generate from the Vulkan "
                               "1.3 specification's Required Limits and Feature "
                               "Requirements; do not edit.",
                "capabilities": ["vulkan13_minimum"],
            },
        },
    }
    return json.dumps(document, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_or_check(BASELINE_PATH, render_baseline, "tosa_vkshader.devices.generate",
                          __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
