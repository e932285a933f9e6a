"""The validation layer's log as `run --validate` reads it, on a device CI does not have.

`tests/device_logs/nvidia-h200-layer-1.3.239.log` is the log of Debian's validation layer
1.3.239 (core checks and GPU-assisted validation) from `tosa-vkshader run --validate
--keep-workdir` of examples/add_sub_f32 on an NVIDIA H200 (driver 580.159, Vulkan
1.4.312): the op ran right, and every message is the layer saying what of the device's
set-up it does not know (structures and extensions newer than the layer). Before VKS973
each became a VKS966/VKS967 finding and the correct op failed its run; the runs on
lavapipe that find real errors through the same log reader are in test_run_findings.py
and test_run_proof.py.
"""

from __future__ import annotations

from pathlib import Path

from tosa_vkshader.runtime.validation import read_log, unknown_to_layer

H200_LOG = Path(__file__).parent / "device_logs" / "nvidia-h200-layer-1.3.239.log"
NEWER_THAN_THE_LAYER = [
    "VkStructureType 1000141000",  # VkPhysicalDeviceShaderBfloat16FeaturesKHR
    "VkStructureType 1000564000",  # ...ShaderReplicatedCompositesFeaturesEXT
    "VK_KHR_maintenance5", "VK_EXT_shader_replicated_composites", "VK_KHR_shader_bfloat16"]


def test_what_the_layer_does_not_know_of_the_device_is_no_finding():
    messages = read_log(H200_LOG)
    assert [(m.vuid, m.severity) for m in messages] == \
        [("VUID-VkDeviceCreateInfo-pNext-pNext", "ERROR")] * 2 + [("VUID_Undefined", "WARN")] * 3
    unknown, findings = unknown_to_layer(messages)
    assert unknown == NEWER_THAN_THE_LAYER
    assert findings == []


def test_a_real_message_beside_them_stays_a_finding(tmp_path: Path):
    """The same log with one more message of the same VUID that is not about an unknown
    structure (a structure given twice), and a GPU-assisted out-of-bounds store: both are
    findings; the device's set-up is still set apart, and so is a structure unknown to
    the layer in a pipeline's chain."""
    log = H200_LOG.read_text(encoding="utf-8")
    pnext = log.splitlines()[0]
    twice = pnext.split(" | ")
    twice[-1] = ("vkCreateDevice: pCreateInfo->pNext chain contains duplicate structure "
                 "types: VkPhysicalDeviceVulkan11Features appears multiple times.")
    store = ("VUID-vkCmdDispatch-None-02706(ERROR / SPEC): msgNum: 1 - Validation Error: "
             "[ VUID-vkCmdDispatch-None-02706 ] | MessageID = 0x1 | Descriptor index 0 access "
             "out of bounds. Descriptor size is 256 and highest byte accessed was 259. "
             "Compute Dispatch Index 0. Shader validation error occurred at line 8.")
    pipeline = pnext.replace("VkDeviceCreateInfo", "VkComputePipelineCreateInfo").replace(
        "vkCreateDevice: pCreateInfo", "vkCreateComputePipelines: pCreateInfos[0]").replace(
        "(1000141000)", "(1000999000)")  # a newer structure met later, in a pipeline
    (tmp_path / "validation.log").write_text(
        log + " | ".join(twice) + "\n    Objects: 1\n" + store + "\n" + pipeline + "\n",
        encoding="utf-8")
    unknown, findings = unknown_to_layer(read_log(tmp_path / "validation.log"))
    assert unknown == [*NEWER_THAN_THE_LAYER, "VkStructureType 1000999000"]
    assert [(m.vuid, m.shader_line) for m in findings] == [
        ("VUID-VkDeviceCreateInfo-pNext-pNext", None), ("VUID-vkCmdDispatch-None-02706", 8)]
