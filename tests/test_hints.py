"""Hints that are right: each fix hint checked against the situation it fires in. A hint
is given only when it is the likely fix; following it must not just trade one error for
another."""

from __future__ import annotations

import json

from tosa_vkshader import validate

from conftest import FIXTURES
from hint_cases import hinted

BUFFER_OP = json.loads((FIXTURES / "glsl" / "valid" / "buffer-scale.json").read_text())
# set 0: binding 0 `src` readonly (read), binding 1 `dst` writeonly (written)
TENSOR_OPS = json.loads((FIXTURES / "models" / "tensor_shaders.ops.json").read_text())


def _by_code(attrs_or_text) -> dict[str, list]:
    found: dict[str, list] = {}
    for diag in validate(attrs_or_text).diagnostics:
        found.setdefault(diag.code, []).append(diag)
    return found


def test_a_mistyped_binding_is_fixed_by_correcting_it_not_by_adding_an_output():
    attrs = dict(BUFFER_OP, output_0_binding=2)  # the shader writes binding 1
    found = _by_code(attrs)
    [dangling] = found["VKS412"]
    assert dangling.pointer == "/output_0_binding"
    assert dangling.hint == "did you mean descriptorset 0, binding 1 (dst)?"
    [undeclared] = found["VKS413"]
    assert "output_1" not in undeclared.hint
    assert undeclared.hint == ("set output_0_binding to 1 (output_0 points at set 0, "
                               "binding 2, where the shader has nothing)")
    # Following the hints leaves a clean op.
    assert validate(dict(attrs, output_0_binding=1)).ok


def test_a_mistyped_descriptor_set_names_the_set():
    attrs = dict(BUFFER_OP, input_0_descriptorset=1)
    found = _by_code(attrs)
    assert found["VKS412"][0].hint == "did you mean descriptorset 0, binding 0 (src)?"
    assert found["VKS413"][0].hint.startswith("set input_0_descriptorset to 0 ")


def test_a_really_missing_resource_is_added_under_the_next_free_name():
    attrs = {k: v for k, v in BUFFER_OP.items() if not k.startswith("output_0_")}
    [undeclared] = _by_code(attrs)["VKS413"]
    assert undeclared.hint == ('add output_0_descriptorset: 0, output_0_binding: 1, '
                               'output_0_vkdescriptortype: "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"'
                               ' and output_0_vkformat: "VK_FORMAT_R32_SFLOAT"')
    # the format is the one of the buffer's float elements: adding all four is clean
    assert validate(dict(attrs, output_0_descriptorset=0, output_0_binding=1,
                         output_0_vkdescriptortype="VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
                         output_0_vkformat="VK_FORMAT_R32_SFLOAT")).ok


def test_an_output_is_never_pointed_at_a_readonly_resource():
    # output_0 points nowhere and input_0 sits on the written `dst`: output_0 is pointed
    # at `dst` (writable), never at the readonly `src`, which is where input_0 belongs.
    attrs = dict(BUFFER_OP, output_0_binding=5, input_0_binding=1)
    found = _by_code(attrs)
    [dangling] = [d for d in found["VKS412"] if d.pointer == "/output_0_binding"]
    assert dangling.hint == "did you mean descriptorset 0, binding 1 (dst)?"
    [written] = found["VKS417"]
    assert written.hint == "set input_0_binding to 0 (`src`, which the shader reads)"
    assert validate(dict(attrs, output_0_binding=1, input_0_binding=0)).ok


def test_swapped_input_and_output_bindings_are_swapped_back():
    attrs = dict(BUFFER_OP, input_0_binding=1, output_0_binding=0)
    found = _by_code(attrs)
    assert found["VKS417"][0].hint == "set input_0_binding to 0 (`src`, which the shader reads)"
    assert found["VKS418"][0].hint == ("set output_0_binding to 1 (`dst`, which the shader "
                                       "writes)")
    assert validate(dict(attrs, input_0_binding=0, output_0_binding=1)).ok


def test_a_collision_is_resolved_by_moving_the_resource_the_shader_disagrees_with():
    # input_0 moved onto the output's binding: the attribute rule alone would move
    # output_0 to a free number; the shader says input_0 is the one to move.
    attrs = dict(BUFFER_OP, input_0_binding=1)
    hinted(validate(attrs).diagnostics, "VKS222", pointer="/output_0_binding",  # (the later)
           hint="set input_0_binding to 0 (input_0 points at set 0, binding 1, which the "
                "shader writes)")
    assert validate(dict(attrs, input_0_binding=0)).ok
    # Without a shader the later one is moved to a free binding.
    plain = {k: v for k, v in attrs.items() if not k.startswith("shader_")}
    [alone] = _by_code(plain)["VKS222"]
    assert alone.hint == "give output_0 a free binding, e.g. 2"
    assert validate(dict(plain, output_0_binding=2)).ok


def test_two_dangling_resources_never_get_the_same_target():
    attrs = dict(BUFFER_OP, input_0_binding=7, output_0_binding=8)
    found = _by_code(attrs)
    hints = {d.pointer: d.hint for d in found["VKS412"]}
    assert hints == {"/input_0_binding": "did you mean descriptorset 0, binding 0 (src)?",
                     "/output_0_binding": "did you mean descriptorset 0, binding 1 (dst)?"}


def _tensor_op(operand: str, vkformat: str | None = None) -> str:
    op = dict(TENSOR_OPS[0])
    op["inputs"] = [operand, *op["inputs"][1:]]
    attrs = json.loads(op["implementation_attrs"])
    if vkformat:
        attrs["input_0_vkformat"] = vkformat
    op["implementation_attrs"] = json.dumps(attrs)
    return json.dumps(op)


CONFLICT = ("the model's operand 0 is tensor<1x64xf16> but the shader's tensor 'lhs' holds "
            "float32: no vkformat fits both; change the element type in the model or in the "
            "shader")


def test_model_and_shader_disagreeing_get_no_vkformat_hint_from_vks514():
    # The shader's tensor is float32: "use VK_FORMAT_R16_SFLOAT" would only trade VKS514
    # for VKS415 (which then says "use VK_FORMAT_R32_SFLOAT", the format it started with).
    hinted(validate(_tensor_op("tensor<1x64xf16>")).diagnostics, "VKS514", hint=CONFLICT)


def test_model_and_shader_disagreeing_get_no_vkformat_hint_from_vks415():
    report = validate(_tensor_op("tensor<1x64xf16>", "VK_FORMAT_R16_SFLOAT"))
    assert "VKS514" not in report.codes
    hinted(report.diagnostics, "VKS415", hint=CONFLICT)


def test_vks514_still_suggests_the_format_when_the_shader_agrees_with_the_model():
    # The model and the shader say f32; only the vkformat is wrong: that is the fix.
    report = validate(_tensor_op("tensor<1x64xf32>", "VK_FORMAT_R16_SFLOAT"))
    hinted(report.diagnostics, "VKS514", hint="use VK_FORMAT_R32_SFLOAT")
    hinted(report.diagnostics, "VKS415", hint="use VK_FORMAT_R32_SFLOAT")
    assert validate(_tensor_op("tensor<1x64xf32>", "VK_FORMAT_R32_SFLOAT")).ok
