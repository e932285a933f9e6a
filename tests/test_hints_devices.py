"""Hints of the target-device rules (VKS7xx): each where a device lacks what the op needs,
and, where the hint is a change to the op, the finding gone after that change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tosa_vkshader import Options, validate
from tosa_vkshader.devices.generate import LAVAPIPE_PATH

from conftest import FIXTURES
from hint_cases import Case, after_fix, hinted

DEVICES = FIXTURES / "devices"
DISPATCH = Options(workgroup_semantics="dispatch")


def _op(name: str) -> dict:
    return json.loads((DEVICES / name).read_text())


def _shader(op: dict, old: str, new: str) -> dict:
    assert old in op["shader_code"]
    return {**op, "shader_code": op["shader_code"].replace(old, new)}


def _board(tmp_path: Path, edit) -> str:
    """lavapipe's profile, edited as a user edits a copy by hand."""
    document = json.loads(LAVAPIPE_PATH.read_text())
    edit(document["capabilities"]["device"])
    path = tmp_path / "board.json"
    path.write_text(json.dumps(document))
    return str(path)


def _limit(name: str, value):
    def edit(device):
        device["properties"]["VkPhysicalDeviceProperties"]["limits"][name] = value
    return edit


def _check(op: dict, target: str, options: Options = DISPATCH):
    return validate(op, options, target_device=target)


def test_a_feature_the_device_lacks(tmp_path):
    def no_float64(device):
        for members in device["features"].values():
            if "shaderFloat64" in members:
                members["shaderFloat64"] = False
    board = _board(tmp_path, no_float64)
    op = _op("float64.json")
    before = _check(op, board)
    hinted(before.diagnostics, "VKS700",
           hint="remove what needs Float64 from the shader, or target a device whose "
                "profile sets shaderFloat64")
    single = _shader(_shader(op, "double x = double(src.data[i]);", "float x = src.data[i];"),
                     "1.0lf", "1.0")
    after_fix(before, _check(single, board), "VKS700", None)
    after_fix(before, _check(op, "lavapipe"), "VKS700", None)  # the other way out


@pytest.mark.parametrize("case", [  # given: the limit lowered
    Case("VKS702", ("maxComputeWorkGroupSize", [256, 256, 64]),
         "use local_size_x <= 256 and dispatch more workgroups"),
    Case("VKS703", ("maxComputeWorkGroupInvocations", 256),
         "keep local_size_x * local_size_y * local_size_z <= 256"),
], ids=str)
def test_a_local_size_beyond_the_device(tmp_path, case):
    board = _board(tmp_path, _limit(*case.given))
    op = _op("local_size.json")
    before = _check(op, board)
    hinted(before.diagnostics, case.code, hint=case.hint)
    smaller = {**_shader(op, "local_size_x = 512", "local_size_x = 256"),
               "workgroup_sizes": [2, 1, 1]}
    after_fix(before, _check(smaller, board), case.code, None)


def test_shared_memory_beyond_the_device(tmp_path):
    board = _board(tmp_path, _limit("maxComputeSharedMemorySize", 16384))
    op = _op("shared_memory.json")
    before = _check(op, board)
    hinted(before.diagnostics, "VKS704", hint="use smaller tiles, or fewer shared arrays")
    tile = _shader(op, "shared float tile[8192];", "shared float tile[4096];")
    tile = _shader(tile, "k < 8192u", "k < 4096u")
    tile = _shader(tile, "tile[8191u - i]", "tile[4095u - i]")
    after_fix(before, _check(tile, board), "VKS704", None)


def test_push_constants_beyond_the_device(tmp_path):
    board = _board(tmp_path, _limit("maxPushConstantsSize", 64))
    op = _op("push_constants.json")
    before = _check(op, board)
    hinted(before.diagnostics, "VKS705",
           hint="move the larger values into a uniform or storage buffer")


def test_a_dispatch_beyond_the_device():
    op = {**_op("int64.json"), "workgroup_sizes": [64, 70000, 1]}
    before = _check(op, "lavapipe")
    hinted(before.diagnostics, "VKS706", pointer="/workgroup_sizes/1",
           hint="spread the workgroups over the other dimensions, or make each invocation "
                "do more")
    after_fix(before, _check({**op, "workgroup_sizes": [70000 * 64 // 1024, 1, 1]},
                             "lavapipe"), "VKS706", None)


def test_a_buffer_beyond_the_devices_range():
    text = (DEVICES / "big_buffer.op.json").read_text()
    before = validate(text, target_device="lavapipe")
    hinted(before.diagnostics, "VKS707",
           hint="split the tensor over several buffers, or bind it as a tensor")


@pytest.mark.parametrize(("edit", "hint"), [
    (_limit("maxBoundDescriptorSets", 2), "use descriptor sets 0 to 1"),
    (_limit("maxPerStageDescriptorStorageBuffers", 2),
     "pack several resources into one, or use fewer bindings"),
], ids=["sets", "storage-buffers"])
def test_descriptors_beyond_the_device(tmp_path, edit, hint):
    op = json.loads((FIXTURES / "spirv" / "valid" / "multi_set.json").read_text())
    hinted(_check(op, _board(tmp_path, edit)).diagnostics, "VKS710", hint=hint)


def test_tensors_beyond_the_device(tmp_path):
    def two_tensors(device):
        device["extensions"]["VK_ARM_tensors"] = 1
        device["features"]["VkPhysicalDeviceTensorFeaturesARM"] = {
            "shaderTensorAccess": True, "tensors": True}
        device["properties"]["VkPhysicalDeviceTensorPropertiesARM"] = {
            "maxTensorDimensionCount": 6, "maxTensorElements": 2 ** 32,
            "maxPerDimensionTensorElements": 2 ** 16,
            "maxPerStageDescriptorSetStorageTensors": 2}
    op = json.loads((FIXTURES / "spirv" / "valid" / "tensor_add_f32.json").read_text())
    hinted(_check(op, _board(tmp_path, two_tensors)).diagnostics, "VKS710",
           hint="pack several tensors into one, or use fewer bindings")


def test_an_image_larger_than_the_device_allows():
    text = (DEVICES / "tall_image.op.json").read_text()  # 64 x 6000 texels
    before = validate(text, target_device="baseline")
    hinted(before.diagnostics, "VKS711", pointer="/input_0_binding",
           hint="split the image into tiles of at most 4096 texels a side, or pass it as a "
                "buffer or tensor")
    tiled = text.replace("1x6000x64x1", "1x4000x64x1")
    after_fix(before, validate(tiled, target_device="baseline"), "VKS711", None)


def test_spirv_newer_than_the_device_takes():
    op = _op("float16.json")
    before = _check(op, "android-baseline-2022")
    hinted(before.diagnostics, "VKS712",
           hint='compile for the device: target-env = "vulkan1.1" in [tool.tosa-vkshader] '
                "(or glslc --target-env=vulkan1.1)")
    after_fix(before, _check(op, "android-baseline-2022",
                             Options(workgroup_semantics="dispatch", target_env="vulkan1.1")),
              "VKS712", None)


def test_a_cooperative_matrix_shape_the_device_lacks(reference_glslc, tmp_path):
    def matrices(m, n, k):
        return {"MSize": m, "NSize": n, "KSize": k,
                "AType": "VK_COMPONENT_TYPE_FLOAT16_KHR",
                "BType": "VK_COMPONENT_TYPE_FLOAT16_KHR",
                "CType": "VK_COMPONENT_TYPE_FLOAT32_KHR",
                "ResultType": "VK_COMPONENT_TYPE_FLOAT32_KHR", "scope": "VK_SCOPE_SUBGROUP_KHR"}

    def board(entry) -> str:
        def edit(device):
            device["extensions"]["VK_KHR_cooperative_matrix"] = 1
            device["features"]["VkPhysicalDeviceCooperativeMatrixFeaturesKHR"] = {
                "cooperativeMatrix": True}
            device["cooperativeMatrixProperties"] = [entry]
        return _board(tmp_path, edit)

    op = _op("cooperative_matrix.json")  # 16 x 16 x 16
    before = _check(op, board(matrices(16, 16, 32)))
    hinted(before.diagnostics, "VKS714",
           hint="use one of the listed shapes (M x N x K) and component types")
    after_fix(before, _check(op, board(matrices(16, 16, 16))), "VKS714", None)
