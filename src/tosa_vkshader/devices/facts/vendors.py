"""Approximate vendor classes: Arm Mali (Valhall), Qualcomm Adreno, Apple.

These are not requirements any device promises: they are public figures of a GPU family
as a compiler targets it, so a finding against them says "likely on this class of GPU".
Source of every figure: IREE's known GPU targets (iree-org/iree,
compiler/src/iree/compiler/Codegen/Dialect/GPU/TargetUtils/KnownTargets.cpp: the Valhall,
Adreno and Apple details), which are approximate by IREE's own account. Each builds on
the Vulkan 1.3 minimum (``baseline``), as IREE's Vulkan targets assume SPIR-V 1.6:

- subgroup size (``subgroupSize``, ``minSubgroupSize``, ``maxSubgroupSize``);
- workgroup size and invocations (``maxComputeWorkGroupSize``,
  ``maxComputeWorkGroupInvocations``), shared memory (``maxComputeSharedMemorySize``),
  workgroup counts (``maxComputeWorkGroupCount``);
- arithmetic widths (int8/int16/float16: ``shaderInt8``, ``shaderInt16``,
  ``shaderFloat16``) and storage widths (8/16-bit: ``storageBuffer8BitAccess``,
  ``uniformAndStorageBuffer8BitAccess``, ``storageBuffer16BitAccess``,
  ``uniformAndStorageBuffer16BitAccess``);
- subgroup operations IREE uses (shuffle, arithmetic) and integer dot products.
"""

from __future__ import annotations

from . import Requirements

_ORIGIN = ("IREE's known GPU targets, {} details (iree-org/iree, compiler/src/iree/"
           "compiler/Codegen/Dialect/GPU/TargetUtils/KnownTargets.cpp); approximate")
_SUBGROUP_OPERATIONS = ["VK_SUBGROUP_FEATURE_BASIC_BIT", "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT",
                        "VK_SUBGROUP_FEATURE_SHUFFLE_BIT"]
_ARITHMETIC = ("shaderInt8", "shaderFloat16")
_STORAGE_8 = ("storageBuffer8BitAccess", "uniformAndStorageBuffer8BitAccess")
_STORAGE_16 = ("storageBuffer16BitAccess", "uniformAndStorageBuffer16BitAccess")


def _vendor(name: str, label: str, family: str, subgroup: int, invocations: int,
            sizes: list[int], storage8: bool, summary: str) -> Requirements:
    return Requirements(
        name=name, profile=name.replace("-", "_"), label=label, summary=summary,
        origin=_ORIGIN.format(family), api_version="1.3.0", builds_on="baseline",
        approximate=True,
        limits={
            "maxComputeSharedMemorySize": 32 * 1024,
            "maxComputeWorkGroupCount": [65535, 65535, 65535],
            "maxComputeWorkGroupInvocations": invocations,
            "maxComputeWorkGroupSize": sizes,
        },
        properties={
            "VkPhysicalDeviceVulkan11Properties": {
                "subgroupSize": subgroup,
                "subgroupSupportedStages": ["VK_SHADER_STAGE_COMPUTE_BIT"],
                "subgroupSupportedOperations": _SUBGROUP_OPERATIONS},
            "VkPhysicalDeviceVulkan13Properties": {
                "minSubgroupSize": subgroup, "maxSubgroupSize": subgroup},
        },
        features={
            "VkPhysicalDeviceFeatures": ("shaderInt16",),
            "VkPhysicalDeviceVulkan11Features": _STORAGE_16,
            "VkPhysicalDeviceVulkan12Features": _ARITHMETIC + (_STORAGE_8 if storage8
                                                               else ()),
            "VkPhysicalDeviceVulkan13Features": ("shaderIntegerDotProduct",),
        },
    )


MALI_VALHALL = _vendor(
    "mali-valhall-approximate", "Arm Mali (Valhall) class, approximate", "Valhall",
    16, 512, [512, 512, 512], True,
    "APPROXIMATE Arm Mali Valhall class: subgroup 16, 512 invocations, 32 KiB shared "
    "memory, 8/16-bit arithmetic and storage, no int64")
ADRENO = _vendor(
    "adreno-approximate", "Qualcomm Adreno class, approximate", "Adreno",
    64, 1024, [1024, 1024, 1024], False,
    "APPROXIMATE Qualcomm Adreno class: subgroup 64, 1024 invocations, 32 KiB shared "
    "memory, 8/16-bit arithmetic, no 8-bit storage")
APPLE = _vendor(
    "apple-approximate", "Apple GPU class (through MoltenVK), approximate", "Apple",
    32, 1024, [1024, 1024, 1024], True,
    "APPROXIMATE Apple GPU class: subgroup 32, 1024 invocations, 32 KiB shared memory, "
    "8/16-bit arithmetic and storage")

TARGETS = (MALI_VALHALL, ADRENO, APPLE)
