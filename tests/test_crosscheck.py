"""Cross-check of declared resources against the reflected shader, through public entry points."""

from __future__ import annotations

import json
import runpy

import pytest
from spirv_helpers import SPIRV_FIXTURES, module_bytes, to_bytes, words_of

from tosa_vkshader.config import Options
from tosa_vkshader.rules import run_shader_rules
from tosa_vkshader.rules.crosscheck import crosscheck
from tosa_vkshader.shader import Shader, build_shader, request_for
from tosa_vkshader.spirv import read_module, reflect
from tosa_vkshader.view import AttributeView

GENERATOR = runpy.run_path(str(SPIRV_FIXTURES / "generate.py"))
OURS = ("VKS4", "VKS92")


def fixture(folder: str, name: str) -> dict:
    return json.loads((SPIRV_FIXTURES / folder / f"{name}.json").read_text())


def analyse(attrs: dict, options: Options | None = None, base: str = ""):
    """What the shader stage and the shader-aware rules say about one op."""
    options = options or Options()
    view = AttributeView.build(attrs, options, base)
    outcome = build_shader(request_for(attrs, base), options)
    found = list(outcome.diagnostics)
    if outcome.shader is not None:
        found += run_shader_rules(view, outcome.shader)
    return found


def shader_of(module, entry_point: str | None) -> Shader:
    return Shader(b"", "SPIR-V", entry_point, None, None, (), reflect(module, entry_point))


def cases():
    for folder in ("valid", "invalid"):
        expected = json.loads((SPIRV_FIXTURES / folder / "expected.json").read_text())
        for name, codes in expected.items():
            yield folder, name, sorted({c.split("@")[0] for c in codes if c.startswith(OURS)})


@pytest.mark.parametrize("folder, name, codes", list(cases()))
def test_fixture_codes(folder, name, codes):
    attrs = json.loads((SPIRV_FIXTURES / folder / name).read_text())
    assert sorted({d.code for d in analyse(attrs)}) == codes


def test_fixture_files_are_fresh():
    stale = [str(p) for p, text in GENERATOR["render"]().items()
             if not p.is_file() or p.read_text(encoding="utf-8") != text]
    assert stale == [], "run: python fixtures/spirv/generate.py"


def test_every_cross_check_rule_has_a_fixture():
    covered = {c for _f, _n, codes in cases() for c in codes}
    import tosa_vkshader.rules.crosscheck as module
    from tosa_vkshader.diagnostics import Rule
    declared = {r.code for r in vars(module).values() if isinstance(r, Rule)}
    # tested below: they need a non-default setup (VKS203 here is the shader's local size
    # over the limits, also tested through the codegen cases)
    assert declared - covered <= {"VKS411", "VKS420", "VKS203"}


def by_code(diagnostics, code):
    found = [d for d in diagnostics if d.code == code]
    assert found, f"no {code} in {[d.code for d in diagnostics]}"
    return found[0]


def test_messages_name_the_key_the_value_and_the_fix():
    d = by_code(analyse(fixture("invalid", "tensor_declared_as_buffer")), "VKS414")
    assert d.pointer == "/input_0_vkdescriptortype"
    assert "input_0_vkdescriptortype is VK_DESCRIPTOR_TYPE_STORAGE_BUFFER" in d.message
    assert "in_tensor" in d.message and d.hint == "use VK_DESCRIPTOR_TYPE_TENSOR_ARM"

    d = by_code(analyse(fixture("invalid", "int8_tensor_float_format")), "VKS415")
    assert d.pointer == "/input_0_vkformat" and "int8" in d.message
    assert d.hint == "use VK_FORMAT_R8_SINT"

    d = by_code(analyse(fixture("invalid", "entry_point_typo")), "VKS410")
    assert d.pointer == "/entry_point" and "'mian'" in d.message and "'main'" in d.hint

    d = by_code(analyse(fixture("invalid", "storage_image_format")), "VKS415")
    assert "Rgba8" in d.message and d.hint == "use VK_FORMAT_R8G8B8A8_UNORM"


def test_pointers_carry_the_op_base():
    found = analyse(fixture("invalid", "input_output_swapped"), base="/ops/3/attributes")
    assert {d.pointer for d in found} == {"/ops/3/attributes/input_0_binding",
                                          "/ops/3/attributes/output_0_binding",
                                          "/ops/3/attributes/workgroup_sizes"}


def test_undeclared_binding_suggests_the_keys_to_add():
    d = by_code(analyse(fixture("invalid", "undeclared_output")), "VKS413")
    assert "set 0, binding 2" in d.message
    assert "output_0_binding: 2" in d.hint and "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER" in d.hint


def test_resource_not_in_shader_suggests_a_free_binding():
    d = by_code(analyse(fixture("invalid", "binding_not_in_shader")), "VKS412")
    assert d.pointer == "/output_0_binding" and "binding 1" in d.hint


def test_workgroup_sizes_both_readings_are_explained():
    attrs = fixture("invalid", "workgroup_dispatch_shape")
    d = by_code(analyse(attrs, Options(workgroup_semantics="local-size")), "VKS420")
    assert "[16, 1, 1]" in d.message and "x=64" in d.message
    assert "dispatch shape" in d.message and 'workgroup-semantics = "dispatch"' in d.hint

    dispatch = analyse(attrs)  # the default: the runtime's reading
    assert [d.code for d in dispatch] == ["VKS421"]
    assert dispatch[0].severity.label == "info" and "[1024, 1, 1]" in dispatch[0].message


def test_specialised_local_size_mentions_the_spec_ids():
    d = by_code(analyse(fixture("invalid", "workgroup_spec_default"),
                        Options(workgroup_semantics="local-size")), "VKS420")
    assert "SpecId 0" in d.message and "specializ" in d.message


def test_matching_sizes_get_only_a_note_on_the_two_readings():
    attrs = fixture("valid", "copy_f32")
    assert analyse(attrs, Options(workgroup_semantics="local-size")) == []
    note = analyse(attrs)
    assert [(d.code, d.severity.label) for d in note] == [("VKS430", "info")]
    assert "[64, 1, 1]" in note[0].message and "4096 invocations" in note[0].message
    assert note[0].pointer == "/workgroup_sizes" and "--results" in note[0].hint


@pytest.mark.parametrize("declared", ["VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC",
                                      "VK_DESCRIPTOR_TYPE_MUTABLE_EXT"])
def test_compatible_descriptor_types_for_a_storage_buffer(declared):
    attrs = fixture("valid", "copy_f32") | {"input_0_vkdescriptortype": declared}
    assert [d.code for d in analyse(attrs)] == ["VKS430"]


def test_inline_uniform_block_is_compatible_with_a_uniform_buffer():
    attrs = fixture("invalid", "uniform_params") | {
        "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK"}
    assert [d.code for d in analyse(attrs)] == ["VKS430"]


def test_sampled_type_numeric_class():
    attrs = fixture("valid", "combined_sampler") | {"input_0_vkformat": "VK_FORMAT_R8G8B8A8_UINT"}
    d = by_code(analyse(attrs), "VKS415")
    assert "float32" in d.message and "UINT" in d.message


def test_push_constant_member_names_and_sizes():
    attrs = fixture("valid", "scale_bias_push")
    renamed = analyse(attrs | {"push_constants": "scale: 4, offset: 4"})
    d = by_code(renamed, "VKS422")
    assert d.severity.label == "warning" and "'bias'" in d.hint

    resized = by_code(analyse(attrs | {"push_constants": "scale: 8, bias: 4"}), "VKS422")
    assert "'scale' 8 bytes" in resized.message and resized.hint == "use scale: 4"


def test_push_constants_missing_suggests_the_declaration():
    d = by_code(analyse(fixture("invalid", "push_constants_missing")), "VKS423")
    assert d.hint == 'add "push_constants": "scale: 4, bias: 4"'


def test_malformed_push_constants_are_left_to_the_value_rules():
    attrs = fixture("valid", "scale_bias_push") | {"push_constants": "scale=4; bias=4"}
    assert [d.code for d in analyse(attrs)] == ["VKS430"]


def test_entry_point_must_be_compute():
    words = words_of(module_bytes("copy_f32"))
    for i in range(5, len(words)):
        if words[i] & 0xFFFF == 15:  # OpEntryPoint GLCompute -> Fragment
            words[i + 1] = 4
            break
    module, _ = read_module(to_bytes(words))
    view = AttributeView.build(fixture("valid", "copy_f32"), Options())
    found = crosscheck(view, shader_of(module, "main"))
    d = by_code(found, "VKS411")
    assert d.pointer == "/entry_point" and "Fragment" in d.message


def test_missing_entry_point_skips_usage_rules():
    found = analyse(fixture("invalid", "entry_point_typo"))
    assert [d.code for d in found] == ["VKS410"]


def test_module_without_entry_points():
    words = words_of(module_bytes("copy_f32"))
    i = 5
    while i < len(words):  # drop OpEntryPoint
        count = words[i] >> 16
        if words[i] & 0xFFFF == 15:
            del words[i:i + count]
            continue
        i += count
    module, _ = read_module(to_bytes(words))
    attrs = fixture("valid", "copy_f32")
    d = by_code(crosscheck(AttributeView.build(attrs, Options()), shader_of(module, "main")),
                "VKS410")
    assert "entry points are: none" in d.message
    without = {k: v for k, v in attrs.items() if k != "entry_point"}
    assert crosscheck(AttributeView.build(without, Options()), shader_of(module, None)) == []
