"""Hints of the model-context rules (VKS5xx): an op in its model (an op object, MLIR,
.tosa), each hint where it fires and, where following it is an edit of the model, the
finding gone after that edit."""

from __future__ import annotations

import json
import sys

import pytest

from tosa_vkshader import check_file, validate

from conftest import FIXTURES
from hint_cases import Case, after_fix, hinted, not_reported

MODELS = FIXTURES / "models"
OP = json.loads((MODELS / "op-object.json").read_text())
OP["implementation_attrs"]["output_0_vkformat"] = "VK_FORMAT_R32_SINT"  # (clean)
TENSOR_OP = json.loads((MODELS / "tensor_shaders.ops.json").read_text())[0]


def _op(base: dict = OP, **changes) -> str:
    return json.dumps({**base, **changes}, indent=2)


def _without(key: str) -> str:
    return json.dumps({k: v for k, v in OP.items() if k != key}, indent=2)


def _attrs(**changes) -> dict:
    return {**OP["implementation_attrs"], **changes}


TWO = ["tensor<4x256xi32>", "tensor<4x256xi32>"]


def _declared(name: str, binding: int) -> dict:
    """implementation_attrs with one more resource, as the hint asks."""
    return {"implementation_attrs": _attrs(**{
        f"{name}_binding": binding, f"{name}_descriptorset": 0,
        f"{name}_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
        f"{name}_vkformat": "VK_FORMAT_R32_SINT"})}


def _removed(name: str) -> dict:
    return {"implementation_attrs": {k: v for k, v in _attrs().items()
                                     if not k.startswith(name)}}


CASES = [
    Case("VKS503", _op(domain_name="com.arm.vulkancustomshader"),
         "use 'com.arm.VulkanCustomShader'", _op()),
    Case("VKS504", _without("operator_name"),
         'name the kernel, e.g. operator_name = "my_kernel"', _op()),
    Case("VKS510", _op(inputs=TWO), "add input_1_binding, input_1_descriptorset, "
         "input_1_vkdescriptortype and input_1_vkformat", _op(inputs=TWO,
                                                               **_declared("input_1", 2))),
    Case("VKS511", _op(inputs=[]),
         "remove the input_0_* attributes, or check that they are attached to the right op",
         _op(inputs=[], **_removed("input_0"))),
    Case("VKS512", _op(outputs=TWO), "add output_1_binding, output_1_descriptorset, "
         "output_1_vkdescriptortype and output_1_vkformat", _op(outputs=TWO,
                                                                **_declared("output_1", 2))),
    Case("VKS513", _op(outputs=[]),
         "remove the output_0_* attributes, or check that they are attached to the right op",
         _op(outputs=[], **_removed("output_0"))),
    Case("VKS514", _op(inputs=["tensor<4x256xf16>"]), "use VK_FORMAT_R16_SFLOAT",
         _op(inputs=["tensor<4x256xf16>"],
             implementation_attrs=_attrs(input_0_vkformat="VK_FORMAT_R16_SFLOAT"))),
    Case("VKS515", _op(inputs=["tensor<4x256xui32>"]), "use VK_FORMAT_R32_UINT",
         _op(inputs=["tensor<4x256xui32>"],
             implementation_attrs=_attrs(input_0_vkformat="VK_FORMAT_R32_UINT"))),
    Case("VKS516", _op(TENSOR_OP, inputs=["tensor<64xf32>", "tensor<1x64xf32>"]),
         "bind a tensor of the shader's rank, or point the binding at the right shader tensor",
         _op(TENSOR_OP)),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_hint(case):
    before = validate(case.given)
    hinted(before.diagnostics, case.code, hint=case.hint)
    after_fix(before, validate(case.fixed), case.code, None)


def test_a_dispatch_that_leaves_results_unwritten():
    text = (MODELS / "dispatch" / "dispatch.ops.json").read_text()
    before = validate(text, path="dispatch.ops.json")
    hinted(before.diagnostics, "VKS518",
           hint="use workgroup_sizes [4, 4, 1] (x walks dimension 2 of result 0 "
                "(tensor<1x32x32x1xi8>); y walks dimension 1 of result 0 "
                "(tensor<1x32x32x1xi8>))")
    fixed = text.replace('\\"workgroup_sizes\\": [2, 2, 1]', '\\"workgroup_sizes\\": [4, 4, 1]')
    assert fixed.count("[4, 4, 1]") == 2  # (both ops: the covered one stays covered)
    after_fix(before, validate(fixed, path="dispatch.ops.json"), "VKS518", None)


def _model(tmp_path, name: str, *edits: tuple[str, str]):
    text = (MODELS / name).read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text)
    return check_file(path)


WIRING = [  # each Case: the model as it is, the hint, the edits that follow it
    Case("VKS530", "wiring.mlir",
         "use a tensor of numbers with non-zero static or dynamic dimensions",
         [("%z: tensor<0x64xf32>", "%z: tensor<1x64xf32>"),
          ("(tensor<0x64xf32>) -> tensor<1x64xf32>", "(tensor<1x64xf32>) -> tensor<1x64xf32>")]),
    Case("VKS531", "wiring.mlir",
         "return the result from the function (or consume it), or remove it from the op",
         [("-> (tensor<1x64xf32>, tensor<1x64xf32>) {",
           "-> (tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) {"),
          ("return %0, %2#0 : tensor<1x64xf32>, tensor<1x64xf32>",
           "return %0, %2#0, %2#1 : tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>")]),
    Case("VKS532", "wiring.mlir",
         "pass a distinct value as operand 1 (e.g. a tosa.identity of %a), or read it once in "
         "the shader",
         [("    %1 = tosa.custom %a, %a {",
           "    %b = tosa.identity %a : (tensor<1x64xf32>) -> tensor<1x64xf32>\n"
           "    %1 = tosa.custom %a, %b {")]),
    Case("VKS520", "returned-swapped.mlir",
         "return the op's results in their own order, or reorder the op's results (its "
         "output_N attributes and result types) to the order returned",
         [("return %0#1, %0#0", "return %0#0, %0#1")]),
]


@pytest.mark.parametrize("case", WIRING, ids=str)
def test_how_the_op_sits_in_its_function(tmp_path, case):
    before = _model(tmp_path, case.given)
    hinted(before.diagnostics, case.code, hint=case.hint)
    after_fix(before, _model(tmp_path, case.given, *case.fixed), case.code, None)


def test_a_file_that_is_not_a_tosa_flatbuffer(tmp_path):
    path = tmp_path / "model.tosa"
    path.write_bytes(b"\x00" * 64)
    hinted(check_file(path).diagnostics, "VKS501",
           hint="check the file is a .tosa written by tosa-opt --tosa-serialize or "
                "tosa_serializer")


def test_a_tosa_flatbuffer_cut_short(tmp_path):
    data = (MODELS / "pretty.tosa").read_bytes()
    path = tmp_path / "model.tosa"
    path.write_bytes(data[:len(data) // 2])
    before = check_file(path)
    hinted(before.diagnostics, "VKS501", hint="regenerate the file; it may have been cut short")
    path.write_bytes(data)  # (the whole model: its ops' own findings are read again)
    not_reported(check_file(path).diagnostics, "VKS501")


def test_tosa_files_without_the_tosa_reader(tmp_path, monkeypatch):
    # As in an environment where tosa-tools is not installed: its import fails.
    for name in [m for m in sys.modules if m == "tosa" or m.startswith("tosa.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "tosa", None)
    hinted(check_file(MODELS / "pretty.tosa").diagnostics, "VKS930",
           hint="pip install tosa-tools into the environment tosa-vkshader runs in (in "
                "pre-commit: additional_dependencies: [tosa-tools])")
