"""What ML shaders need of a device (#28), checked against the shipped targets: subgroup
operations and float16 at 256 invocations, cooperative matrices, bfloat16, 8-bit storage,
image extents, the SPIR-V version, the stages subgroup operations run in.

Cooperative matrices and bfloat16 need a newer glslang than Debian's: those fixtures are
compiled with the reference runtime's own glslc (the ``reference_glslc`` fixture).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tosa_vkshader
from tosa_vkshader.cli import main
from tosa_vkshader.devices.generate import LAVAPIPE_PATH

from conftest import FIXTURES

DEVICES = FIXTURES / "devices"
# The note every fixture here gets: workgroup_sizes equal to the local size (VKS430).
NOT_ABOUT_DEVICES = ("VKS430",)


def findings(path: Path, target: str) -> list[tosa_vkshader.Diagnostic]:
    report = tosa_vkshader.check_file(path, target_device=target)
    other = [d for d in report.diagnostics
             if not d.code.startswith("VKS7") and d.code not in NOT_ABOUT_DEVICES]
    assert other == [], f"{path.name} should be clean apart from device findings: {other}"
    return [d for d in report.diagnostics if d.code.startswith("VKS7")]


def codes(path: Path, target: str) -> list[str]:
    return sorted(d.code for d in findings(path, target))


def test_subgroup_float16_at_256_invocations_runs_on_roadmap_2024_not_on_the_minimum():
    fixture = DEVICES / "subgroup_f16_256.json"
    for target in ("roadmap-2024", "roadmap-2026", "android-16", "lavapipe",
                   "mali-valhall-approximate"):
        assert codes(fixture, target) == [], target
    found = findings(fixture, "baseline")
    assert sorted(d.code for d in found) == ["VKS700", "VKS700", "VKS700", "VKS702",
                                             "VKS703"]
    messages = " ".join(d.message for d in found)
    for need in ("OpCapability Float16", "OpCapability GroupNonUniformArithmetic",
                 "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT", "OpCapability StorageBuffer16BitAccess",
                 "256 invocations"):
        assert need in messages
    # Android 15 has float16 and subgroup arithmetic, but still 128 invocations
    found = findings(fixture, "android-15")
    assert [d.code for d in found] == ["VKS702", "VKS703"]
    assert ("set by block `android_baseline_2022` of VP_ANDROID_baseline_2022 (shipped "
            "profile android-baseline-2022.json)") in found[1].message


def test_cooperative_matrices_need_roadmap_2026(reference_glslc):
    fixture = DEVICES / "cooperative_matrix.json"
    found = findings(fixture, "roadmap-2024")
    assert [d.code for d in found] == ["VKS700", "VKS701"]
    assert "OpCapability CooperativeMatrixKHR" in found[0].message
    assert "VkPhysicalDeviceCooperativeMatrixFeaturesKHR.cooperativeMatrix" in found[0].message
    assert "VK_KHR_cooperative_matrix" in found[1].message
    assert codes(fixture, "roadmap-2026") == []


def _with_matrices(tmp_path: Path, entries: list[dict], stages: list[str]) -> Path:
    """The Roadmap 2026 target with a block listing the device's cooperative matrix
    combinations, as a user describes a device."""
    document = {
        "capabilities": {"matrices": {
            "properties": {"VkPhysicalDeviceCooperativeMatrixPropertiesKHR": {
                "cooperativeMatrixSupportedStages": stages}},
            "cooperativeMatrixProperties": entries}},
        "profiles": {"VP_EXAMPLE_npu": {
            "version": 1, "api-version": "1.4.328", "label": "an NPU-ish GPU",
            "description": "Roadmap 2026 and the matrices it runs",
            "profiles": ["VP_KHR_roadmap_2026"], "capabilities": ["matrices"]}}}
    path = tmp_path / "npu.json"
    path.write_text(json.dumps(document))
    return path


F16, F32 = "VK_COMPONENT_TYPE_FLOAT16_KHR", "VK_COMPONENT_TYPE_FLOAT32_KHR"


def _entry(m: int, n: int, k: int) -> dict:
    return {"MSize": m, "NSize": n, "KSize": k, "AType": F16, "BType": F16, "CType": F32,
            "ResultType": F32, "saturatingAccumulation": False,
            "scope": "VK_SCOPE_SUBGROUP_KHR"}


def test_cooperative_matrix_shapes_against_the_ones_a_profile_lists(reference_glslc,
                                                                      tmp_path):
    fixture = DEVICES / "cooperative_matrix.json"  # 16x16x16, float16 x float16 -> float32
    compute = ["VK_SHADER_STAGE_COMPUTE_BIT"]
    assert codes(fixture, str(_with_matrices(tmp_path, [_entry(16, 16, 16)], compute))) == []
    found = findings(fixture, str(_with_matrices(tmp_path, [_entry(16, 8, 16)], compute)))
    # A (16x16) fits M=16,K=16; B (16x16) and the accumulator (16x16) need N=16
    assert [d.code for d in found] == ["VKS714", "VKS714"]
    messages = sorted(d.message for d in found)
    assert "a 16x16 cooperative matrix of VK_COMPONENT_TYPE_FLOAT16_KHR used as B" in \
           messages[0]
    assert "VK_COMPONENT_TYPE_FLOAT32_KHR used as Accumulator" in messages[1]
    assert all("it lists 16x8x16" in m for m in messages)
    fragment = ["VK_SHADER_STAGE_FRAGMENT_BIT"]
    found = findings(fixture, str(_with_matrices(tmp_path, [_entry(16, 16, 16)], fragment)))
    assert [d.code for d in found] == ["VKS713"]
    assert "cooperativeMatrixSupportedStages" in found[0].message


def test_bfloat16_needs_shader_bfloat16_type(reference_glslc, tmp_path):
    fixture = DEVICES / "bfloat16.json"
    found = findings(fixture, "roadmap-2026")
    assert [d.code for d in found] == ["VKS700", "VKS701"]
    assert "OpCapability BFloat16TypeKHR" in found[0].message
    assert "shaderBFloat16Type" in found[0].message
    document = json.loads(LAVAPIPE_PATH.read_text())
    device = document["capabilities"]["device"]
    device["extensions"]["VK_KHR_shader_bfloat16"] = 1
    device["features"]["VkPhysicalDeviceShaderBfloat16FeaturesKHR"] = {
        "shaderBFloat16Type": True}
    board = tmp_path / "bf16-board.json"
    board.write_text(json.dumps(document))
    assert codes(fixture, str(board)) == []


def test_eight_bit_storage_on_the_approximate_vendor_classes():
    fixture = DEVICES / "storage8.json"
    found = findings(fixture, "adreno-approximate")
    assert [d.code for d in found] == ["VKS700"]
    assert "StorageBuffer8BitAccess" in found[0].message
    assert "target `adreno-approximate`" in found[0].message
    assert codes(fixture, "mali-valhall-approximate") == []
    assert codes(fixture, "apple-approximate") == []


def test_image_extents_from_the_model_against_max_image_dimension():
    tall = DEVICES / "tall_image.op.json"  # tensor<1x6000x64x1xf32> as image2D
    found = findings(tall, "baseline")
    assert [(d.code, d.pointer) for d in found] == [("VKS711", "/input_0_binding"),
                                                    ("VKS711", "/output_0_binding")]
    assert ("input_0 is a 2D image of 64x6000 texels (shape 1x6000x64x1): its height 6000 "
            "exceeds the device's 4096 (maxImageDimension2D") in found[0].message
    assert codes(tall, "roadmap-2022") == []  # 8192
    deep = DEVICES / "deep_volume.op.json"  # tensor<1x300x16x16x1xf32> as image3D
    found = findings(deep, "roadmap-2026")  # the Roadmap keeps the 3-D minimum, 256
    assert [d.code for d in found] == ["VKS711", "VKS711"]
    assert "its depth 300 exceeds the device's 256 (maxImageDimension3D" in found[0].message
    assert codes(deep, "desktop-baseline-2026") == []  # 2048


def test_spirv_newer_than_the_device_accepts(capsys, tmp_path):
    fixture = DEVICES / "int64.json"  # compiled for Vulkan 1.3: SPIR-V 1.6
    found = sorted(findings(fixture, "android-baseline-2022"), key=lambda d: d.code)
    assert [d.code for d in found] == ["VKS700", "VKS712"]  # (VKS700 at its shader line)
    assert ("the shader is SPIR-V 1.6, but target `android-baseline-2022` (shipped profile "
            "android-baseline-2022.json) is Vulkan 1.1, which accepts SPIR-V up to 1.3"
            ) in found[1].message
    assert found[1].hint.startswith('compile for the device: target-env = "vulkan1.1"')
    (tmp_path / "pyproject.toml").write_text('[tool.tosa-vkshader]\ntarget-env = "vulkan1.1"\n')
    code = main(["check", "--config", str(tmp_path / "pyproject.toml"), "--format", "json",
                 "--target-device", "android-baseline-2022", str(fixture)])
    diagnostics = json.loads(capsys.readouterr().out)["files"][0]["diagnostics"]
    assert code == 1 and [d["code"] for d in diagnostics if d["code"].startswith("VKS7")] == [
        "VKS700"]  # shaderInt64 is still missing; SPIR-V 1.3 is fine


def test_subgroup_operations_need_the_compute_stage(tmp_path):
    document = json.loads(LAVAPIPE_PATH.read_text())
    properties = document["capabilities"]["device"]["properties"]
    properties["VkPhysicalDeviceVulkan11Properties"]["subgroupSupportedStages"] = [
        "VK_SHADER_STAGE_FRAGMENT_BIT"]
    properties["VkPhysicalDeviceSubgroupProperties"]["supportedStages"] = [
        "VK_SHADER_STAGE_FRAGMENT_BIT"]
    board = tmp_path / "fragment-subgroups.json"
    board.write_text(json.dumps(document))
    found = findings(DEVICES / "subgroup_f16_256.json", str(board))
    assert [d.code for d in found] == ["VKS713"]
    assert "subgroup operations (OpCapability GroupNonUniform, GroupNonUniformArithmetic)" \
           in found[0].message
    assert "no VK_SHADER_STAGE_COMPUTE_BIT" in found[0].message
    # without subgroup operations, the stages do not matter
    assert codes(DEVICES / "float16.json", str(board)) == []


@pytest.mark.parametrize("missing", ["subgroupSupportedOperations", "subgroupSize"])
def test_an_unlisted_subgroup_property_is_the_vulkan_1_1_minimum(tmp_path, missing):
    """Android's 2022 baseline lists no subgroup property: basic subgroup operations in
    compute are what every Vulkan 1.1 device has, arithmetic is not."""
    found = findings(DEVICES / "subgroup_f16_256.json", "android-baseline-2022")
    texts = [d.message for d in found if "GroupNonUniform" in d.message]
    assert len(texts) == 1 and "GroupNonUniformArithmetic" in texts[0]
    assert "not listed: the Vulkan 1.1 minimum ['VK_SUBGROUP_FEATURE_BASIC_BIT'] applies" \
           in texts[0]


def test_the_readme_example_is_what_check_prints(capsys, tmp_path, monkeypatch):
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    section = readme[readme.index("## Target devices"):]
    table = section[section.index("```text\n") + 8:section.index("```\n", section.index(
        "```text\n"))]
    (tmp_path / "reduce.json").write_text((DEVICES / "subgroup_f16_256.json").read_text())
    monkeypatch.chdir(tmp_path)
    code = main(["check", "--targets-summary", "--target-device", "baseline",
                 "--target-device", "android-15", "--target-device", "roadmap-2024",
                 "reduce.json"])
    assert (code, capsys.readouterr().out) == (1, table)
    main(["check", "--target-device", "android-15", "reduce.json"])
    why = section.split("```text\n")[2].split("```")[0].strip()
    assert why in capsys.readouterr().out
