"""Verdicts that follow the reference converter (issue #16, deliverables 2 and 3): every
case where it rejects or silently breaks an op is an error here, and what it accepts and
runs is no error (at most a warning that says why). The differential suite in
tests/differential/ measures the same against the real converter; these tests pin each
rule through the public entry points without it."""

from __future__ import annotations

import base64
import json

import pytest

from tosa_vkshader import Options, check_paths, validate
from tosa_vkshader.cli import main
from tosa_vkshader.diagnostics import Severity
from tosa_vkshader.vulkan import tables as vulkan_tables

BUFFER_OP = {
    "entry_point": "main",
    "workgroup_sizes": [64, 1, 1],
    "input_0_type": "Buffer",
    "input_0_vkformat": "VK_FORMAT_R32_SFLOAT",
    "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
    "input_0_binding": 0,
    "input_0_descriptorset": 0,
    "output_0_vkformat": "VK_FORMAT_R32_SFLOAT",
    "output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
    "output_0_binding": 1,
    "output_0_descriptorset": 0,
}
SAMPLER = {
    "min_filter": "VK_FILTER_LINEAR", "mag_filter": "VK_FILTER_LINEAR",
    "address_mode_u": "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE",
    "address_mode_v": "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE",
    "border_color": "VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK",
}
IMAGE_OP = {**BUFFER_OP, "input_0_type": "Image", "input_0_vkformat": "VK_FORMAT_R8G8B8A8_UNORM",
            "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER",
            "input_0_sampler": SAMPLER}


def _with(op: dict, **changes) -> dict:
    return {**op, **changes}


def _text(op: dict, tail: str = "") -> str:
    """JSON text of ``op`` with raw ``tail`` text added as its last member."""
    text = json.dumps(op, indent=1)
    return text[:-2] + ",\n" + tail + "\n}" if tail else text


def _by_code(report) -> dict[str, list]:
    found: dict[str, list] = {}
    for diag in report.diagnostics:
        found.setdefault(diag.code, []).append(diag)
    return found


def _mlir(attrs_text: str, operands=("tensor<1x64xf32>",), results=("tensor<1x64xf32>",),
          *, call: str | None = None, returned: str | None = None) -> str:
    escaped = "".join(c if 0x20 <= ord(c) < 0x7F and c not in '"\\' else
                      "".join(f"\\{b:02X}" for b in c.encode("utf-8", "surrogatepass"))
                      for c in attrs_text)
    args = ", ".join(f"%a{k}: {t}" for k, t in enumerate(operands))
    result_sig = results[0] if len(results) == 1 else "(" + ", ".join(results) + ")"
    head = f"%0:{len(results)}" if len(results) > 1 else "%0"
    returned = returned or ("%0" if len(results) == 1 else
                            ", ".join(f"%0#{k}" for k in range(len(results))))
    ret_types = ", ".join(results[: returned.count("%")])
    return (f"module {{\n  func.func @main({args}) -> ({ret_types}) {{\n"
            f"    {head} = tosa.custom {call or ', '.join(f'%a{k}' for k in range(len(operands)))}"
            f' {{domain_name = "com.arm.VulkanCustomShader", operator_name = "op", '
            f'implementation_attrs = "{escaped}"}} : ({", ".join(operands)}) -> {result_sig}\n'
            f"    return {returned} : {ret_types}\n  }}\n}}\n")


def test_the_base_op_is_clean():
    assert validate(BUFFER_OP).ok
    assert validate(IMAGE_OP).ok


# -- JSON exactly where the converter's parser (nlohmann) accepts it -----------------------

@pytest.mark.parametrize("tail,code", [
    ('"note": "\\ud800"', "VKS120"),          # a lone surrogate in an unknown key's value
    ('"n\\udc00te": 1', "VKS120"),            # ... in a key
    ('"note": ["x", {"y": "\\udbff"}]', "VKS120"),
    ('"note": 1e400', "VKS121"),              # beyond a double, in an unknown key
    ('"note": -1e400', "VKS121"),
    ('"note": {"deep": [1e999]}', "VKS121"),
    ('"note": ' + "9" * 400, "VKS121"),       # an integer no double can hold
])
def test_what_nlohmann_refuses_is_an_error_in_any_key(tail, code):
    for path in (None, "model.mlir"):
        text = _text(BUFFER_OP, tail)
        report = validate(_mlir(text) if path else text, path=path)
        assert code in report.codes and not report.ok, (path, report.diagnostics)


@pytest.mark.parametrize("tail", [
    '"note": "\\ud83d\\ude00"',  # a surrogate pair is a character
    '"note": 1e-400',             # underflow is fine
    '"note": ' + "9" * 30,        # read as a double, fine
    '"note": 18446744073709551615',
])
def test_what_nlohmann_accepts_is_no_error(tail):
    report = validate(_text(BUFFER_OP, tail))
    assert report.ok, report.diagnostics


def test_a_bom_is_read_the_same_in_json_and_in_mlir(tmp_path):
    json_file = tmp_path / "op.json"
    json_file.write_bytes(b"\xef\xbb\xbf" + json.dumps(BUFFER_OP).encode())
    mlir_file = tmp_path / "model.mlir"
    mlir_file.write_text(_mlir("\ufeff" + json.dumps(BUFFER_OP)))
    for report in check_paths([json_file, mlir_file]):
        assert report.ok, report.diagnostics


# -- base64 exactly as strict as the converter's decoder ------------------------------------

WHOLE = base64.b64encode(bytes(24)).decode()  # 32 characters, no padding needed


@pytest.mark.parametrize("code_text,message", [
    (WHOLE + "=", "after a complete group of four"),
    (WHOLE + "====", "after a complete group of four"),
    (WHOLE[:-1], "padding is wrong"),
])
def test_base64_padding_is_as_strict_as_the_converter(code_text, message):
    op = _with(BUFFER_OP, shader_language="SPIR-V", shader_code=code_text)
    (diag,) = _by_code(validate(op))["VKS206"]
    assert message in diag.message


# -- shader_language "" ------------------------------------------------------------------

@pytest.mark.parametrize("extra", [{"shader_language": ""},
                                   {"shader_language": "", "shader_code": ""}])
def test_an_empty_language_without_code_is_an_error_that_quotes_the_spec(extra):
    found = _by_code(validate(_with(BUFFER_OP, **extra)))
    (diag,) = found["VKS242"]
    assert diag.severity is Severity.ERROR and diag.pointer == "/shader_language"
    assert '"unspecified"' in diag.message and "treats any present" in diag.message


def test_empty_code_without_a_language_is_an_error():
    assert "VKS205" in validate(_with(BUFFER_OP, shader_code="")).codes


# -- numbers the converter truncates to uint32 ---------------------------------------------

@pytest.mark.parametrize("semantics", ["local-size", "dispatch"])
def test_workgroup_sizes_beyond_uint32_are_errors_under_every_reading(semantics):
    options = Options(workgroup_semantics=semantics)
    report = validate(_with(BUFFER_OP, workgroup_sizes=[2**32 + 1, 1, 1]), options)
    (diag,) = _by_code(report)["VKS241"]
    assert diag.pointer == "/workgroup_sizes/0" and "stores 1" in diag.message


@pytest.mark.parametrize("key", ["input_0_binding", "output_0_descriptorset"])
@pytest.mark.parametrize("value", [-1, 2**32, 2**63])
def test_bindings_and_sets_beyond_uint32_are_errors(key, value):
    assert "VKS223" in validate(_with(BUFFER_OP, **{key: value})).codes


# -- registry aliases the converter does not map -------------------------------------------

FORMAT_ALIASES = sorted(k for k, v in vulkan_tables.FORMAT_NAMES.items() if k != v)


def test_every_format_alias_is_an_error_naming_the_canonical_name():
    assert len(FORMAT_ALIASES) == 57
    for alias in FORMAT_ALIASES:
        found = _by_code(validate(_with(BUFFER_OP, output_0_vkformat=alias)))
        (diag,) = found["VKS240"]
        canonical = vulkan_tables.FORMAT_NAMES[alias]
        assert diag.hint == f"write `{canonical}`" and "format -1" in diag.message, alias


@pytest.mark.parametrize("alias", ["VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK_EXT",
                                   "VK_DESCRIPTOR_TYPE_MUTABLE_VALVE"])
def test_descriptor_type_aliases_are_errors_naming_the_canonical_name(alias):
    (diag,) = _by_code(validate(_with(BUFFER_OP, input_0_vkdescriptortype=alias)))["VKS240"]
    assert diag.hint == f"write `{vulkan_tables.DESCRIPTOR_TYPES[alias]}`"
    assert '"none"' in diag.message


# -- the op in its model: types TOSA rejects, bindings the VGF loses -------------------------

@pytest.mark.parametrize("operand,result,where", [
    ("tensor<0x64xf32>", "tensor<1x64xf32>", "operand 0 is tensor<0x64xf32>"),
    ("tensor<1x64xcomplex<f32>>", "tensor<1x64xf32>", "`complex<f32>` is not"),
    ("tensor<1x64xf32>", "tensor<1x64xindex>", "result 0 is tensor<1x64xindex>"),
    ("memref<1x64xf32>", "tensor<1x64xf32>", "operand 0 is memref<1x64xf32>: not a tensor"),
])
def test_types_tosa_rejects_are_errors_naming_the_operand(operand, result, where):
    text = _mlir(json.dumps(BUFFER_OP), (operand,), (result,))
    (diag,) = _by_code(validate(text, path="model.mlir"))["VKS530"]
    assert where in diag.message and diag.location.line == 3


@pytest.mark.parametrize("operand", ["tensor<?x64xf32>", "tensor<*xf32>", "tensor<f32>",
                                     "tensor<1x64xi4>", "tensor<1x64xbf16>"])
def test_types_tosa_accepts_are_no_type_error(operand):
    text = _mlir(json.dumps(BUFFER_OP), (operand,))
    assert "VKS530" not in validate(text, path="model.mlir").codes


def test_a_result_nothing_consumes_is_an_error_naming_it():
    attrs = dict(BUFFER_OP, output_1_vkformat="VK_FORMAT_R32_SFLOAT",
                 output_1_vkdescriptortype="VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
                 output_1_binding=2, output_1_descriptorset=0)
    two = ("tensor<1x64xf32>", "tensor<1x64xf32>")
    all_returned = _mlir(json.dumps(attrs), results=two)
    assert "VKS531" not in validate(all_returned, path="model.mlir").codes
    first_only = _mlir(json.dumps(attrs), results=two, returned="%0#0")
    (diag,) = _by_code(validate(first_only, path="model.mlir"))["VKS531"]
    assert "result 1" in diag.message and "output_1 loses its binding" in diag.message


def test_one_value_passed_as_two_operands_is_an_error_naming_them():
    attrs = dict(BUFFER_OP, input_1_vkformat="VK_FORMAT_R32_SFLOAT",
                 input_1_vkdescriptortype="VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
                 input_1_binding=2, input_1_descriptorset=0)
    two = ("tensor<1x64xf32>", "tensor<1x64xf32>")
    assert "VKS532" not in validate(_mlir(json.dumps(attrs), two), path="m.mlir").codes
    same = _mlir(json.dumps(attrs), two, call="%a0, %a0")
    (diag,) = _by_code(validate(same, path="m.mlir"))["VKS532"]
    assert "operands 0 and 1 are both %a0" in diag.message


# -- false alarms removed: what the converter accepts and runs is no error -------------------

@pytest.mark.parametrize("value,code", [("TENSOR", "VKS229"), ("Tensor", "VKS229"),
                                        ("Image", "VKS229"), ("Texture", "VKS227"),
                                        ("", "VKS227")])
def test_a_type_string_the_converter_ignores_only_warns(value, code):
    report = validate(_with(BUFFER_OP, input_0_type=value))
    assert report.ok, report.diagnostics
    (diag,) = _by_code(report)[code]
    assert diag.severity is Severity.WARNING and "ignores `_type`" in diag.message


@pytest.mark.parametrize("value", [7, True, ["Buffer"], {"kind": "Buffer"}])
def test_a_type_that_is_no_string_is_an_error_although_the_converter_ignores_it(value):
    """The spec and its schema give `_type` a string: ignoring the key does not make a
    number valid (the message says what the converter does)."""
    (diag,) = _by_code(validate(_with(BUFFER_OP, input_0_type=value)))["VKS200"]
    assert diag.severity is Severity.ERROR and diag.pointer == "/input_0_type"
    assert "must be a string" in diag.message and "converter ignores" in diag.message


@pytest.mark.parametrize("key", ["push_constants", "input_0_type", "shader_language",
                                 "output_0_binding"])
def test_null_for_a_key_of_the_spec_is_an_error_saying_the_converter_reads_it_absent(key):
    (diag,) = _by_code(validate(_with(BUFFER_OP, **{key: None})))["VKS200"]
    assert diag.severity is Severity.ERROR and diag.pointer == f"/{key}"
    assert "got null" in diag.message and "reads it as absent" in diag.message


def test_null_for_a_key_outside_the_spec_is_read_as_absent_and_noted():
    report = validate(_with(BUFFER_OP, is_vkshader=None, producer=None))
    assert report.ok, report.diagnostics
    notes = _by_code(report)["VKS243"]
    assert {d.pointer for d in notes} == {"/is_vkshader", "/producer"}
    assert all(d.severity is Severity.INFO and "reads null as absent" in d.message
               for d in notes)


def test_null_shader_language_and_code_are_errors_not_a_placeholder():
    report = validate(_with(BUFFER_OP, shader_language=None, shader_code=None))
    assert sorted(d.pointer for d in _by_code(report)["VKS200"]) == ["/shader_code",
                                                              "/shader_language"]


def test_a_required_key_set_to_null_is_missing():
    found = _by_code(validate(_with(BUFFER_OP, entry_point=None)))
    assert "VKS110" in found and "VKS200" in found


def test_a_null_sampler_is_still_an_error_as_in_the_converter():
    assert not validate(_with(IMAGE_OP, input_0_sampler=None)).ok


@pytest.mark.parametrize("field,value,listed", [
    ("min_filter", "VK_FILTER_CUBIC_EXT", "VK_FILTER_CUBIC_IMG"),
    ("address_mode_u", "VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE_KHR",
     "VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE"),
])
def test_sampler_names_the_schema_does_not_list_are_errors_saying_the_converter_maps_them(
        field, value, listed):
    report = validate(_with(IMAGE_OP, input_0_sampler={**SAMPLER, field: value}))
    (diag,) = _by_code(report)["VKS231"]
    assert diag.severity is Severity.ERROR
    assert "the reference converter maps it" in diag.message and listed in diag.hint


def test_a_sampler_name_nobody_maps_is_an_error_saying_what_the_converter_does():
    report = validate(_with(IMAGE_OP, input_0_sampler={**SAMPLER, "min_filter": "LINEAR"}))
    (diag,) = _by_code(report)["VKS231"]
    assert diag.severity is Severity.ERROR and "leaves the field unset" in diag.message


def test_an_extra_sampler_field_is_an_error_a_sampler_on_a_buffer_only_warns():
    report = validate(_with(IMAGE_OP, input_0_sampler={**SAMPLER, "max_lod": 1.0}))
    (diag,) = _by_code(report)["VKS231"]
    assert diag.severity is Severity.ERROR and diag.pointer == "/input_0_sampler/max_lod"
    assert "converter ignores others" in diag.message
    report = validate(_with(BUFFER_OP, input_0_sampler=SAMPLER))
    assert report.ok and "VKS230" in report.codes


@pytest.mark.parametrize("near,right", [("input_0_bindng", "input_0_binding"),
                                        ("entryPoint", "entry_point")])
def test_a_near_miss_key_beside_the_right_one_warns_alone_it_is_an_error(near, right):
    beside = validate(_with(BUFFER_OP, **{near: BUFFER_OP[right]}))
    assert beside.ok and any("also present" in d.message for d in beside.diagnostics)
    alone = {(near if k == right else k): v for k, v in BUFFER_OP.items()}
    assert not validate(alone).ok


# -- the command line: the same verdicts --------------------------------------------------

def test_check_exit_codes_follow_the_verdicts(tmp_path, capsys):
    warned = tmp_path / "warned.json"
    warned.write_text(json.dumps(_with(BUFFER_OP, input_0_type="TENSOR")))
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(_with(BUFFER_OP, output_0_vkformat="VK_FORMAT_A8_UNORM_KHR")))
    assert main(["check", str(warned)]) == 0
    assert main(["check", str(broken)]) == 1
    out = capsys.readouterr().out
    assert "warning[VKS229]" in out and "error[VKS240]" in out
    assert "help: write `VK_FORMAT_A8_UNORM`" in out


# -- where we stay stricter than the converter, the diagnostic says so and why ---------------

@pytest.mark.parametrize("text,code,why", [
    (_text(_with(BUFFER_OP), '"input_0_binding": 0'), "VKS103", "the spec asks for"),
    (json.dumps(_with(BUFFER_OP, input_00_binding=0)), "VKS111", "the spec forbids"),
    (json.dumps(_with(BUFFER_OP, workgroup_sizes=[0, 1, 1])), "VKS202", "dispatch nothing"),
    (json.dumps(_with(BUFFER_OP, output_0_binding=0)), "VKS222", "the converter does not"),
    (json.dumps(_with(BUFFER_OP, shader_language="GLSL", shader_code="")), "VKS205",
     "the converter accepts empty code"),
])
def test_stricter_than_the_converter_says_so_and_why(text, code, why):
    (diag,) = _by_code(validate(text))[code]
    assert diag.severity is Severity.ERROR and "converter" in diag.message
    assert why in diag.message


def test_an_empty_operator_name_converts_so_it_warns_a_missing_one_is_an_error():
    text = _mlir(json.dumps(BUFFER_OP)).replace('operator_name = "op"', 'operator_name = ""')
    report = validate(text, path="model.mlir")
    assert report.ok and _by_code(report)["VKS504"][0].severity is Severity.WARNING
    missing = _mlir(json.dumps(BUFFER_OP)).replace('operator_name = "op", ', "")
    (diag,) = _by_code(validate(missing, path="model.mlir"))["VKS504"]
    assert diag.severity is Severity.ERROR
