"""A compiler error inside `shader_code` carries both places in every output format: where
it is in the file (the op's location) and the line and column inside the shader source.
A finding that compares an attribute with the shader stays at the attribute key and also
names the shader's declaration: its line in GLSL/HLSL, its instruction in embedded
SPIR-V."""

from __future__ import annotations

import json

from tosa_vkshader.cli import main
from tosa_vkshader.codegen.emit import mlir_string

from conftest import FIXTURES

BROKEN = FIXTURES / "glsl" / "invalid" / "glsl-syntax-error.json"


def _check(capsys, fmt: str) -> str:
    assert main(["check", str(BROKEN), "--format", fmt]) == 1
    return capsys.readouterr().out


def _compile_error(diagnostics: list[dict]) -> dict:
    [diag] = [d for d in diagnostics if d["code"] == "VKS300"]
    return diag


def test_json_has_the_file_location_and_the_shader_location(capsys):
    diag = _compile_error(json.loads(_check(capsys, "json"))["files"][0]["diagnostics"])
    assert diag["location"]["path"] == str(BROKEN) and diag["location"]["line"] >= 1
    assert diag["shader_location"]["line"] == 8
    assert diag["shader_location"]["column"] >= 1


def test_sarif_has_the_shader_location_as_property_and_related_location(capsys):
    results = json.loads(_check(capsys, "sarif"))["runs"][0]["results"]
    [result] = [r for r in results if r["ruleId"] == "VKS300"]
    shader = result["properties"]["shaderLocation"]
    assert shader["line"] == 8
    [related] = result["relatedLocations"]
    assert related["message"]["text"] == (f"line 8, column {shader['column']} of "
                                          "shader_code")
    assert related["physicalLocation"] == result["locations"][0]["physicalLocation"]


def test_github_annotations_name_the_shader_line(capsys):
    lines = [line for line in _check(capsys, "github").splitlines() if "VKS300" in line]
    assert len(lines) == 1 and "[shader_code line 8, column " in lines[0]
    assert f"file={BROKEN}".replace(":", "%3A").replace(",", "%2C") in lines[0]


def test_text_shows_the_shader_line(capsys):
    out = _check(capsys, "text")
    assert "(line 8 of `shader_code`)" in out


# -- a cross-check finding: at the attribute key, and at the shader's declaration ----------

WRONG_BINDING = FIXTURES / "glsl" / "invalid" / "glsl-wrong-binding.json"
# line 4 of its shader: the declaration of `dst`, which the shader binds at 2
DST_DECLARATION = "layout(set = 0, binding = 2) writeonly buffer Output"


def _run(capsys, path, fmt: str) -> str:
    main(["check", str(path), "--format", fmt])
    return capsys.readouterr().out


def _dangling_output(diagnostics: list[dict]) -> dict:
    [diag] = [d for d in diagnostics if d["code"] == "VKS412"]
    return diag


def _file_text_at(path, line: int, column: int) -> str:
    return path.read_text().split("\n")[line - 1][column - 1:]


def test_json_keeps_the_attribute_and_adds_the_declaration_line(capsys):
    diag = _dangling_output(json.loads(_run(capsys, WRONG_BINDING, "json"))
                            ["files"][0]["diagnostics"])
    assert diag["pointer"] == "/output_0_binding"
    assert _file_text_at(WRONG_BINDING, diag["location"]["line"],
                         diag["location"]["column"]).startswith("1,")
    shader = json.loads(WRONG_BINDING.read_text())["shader_code"].split("\n")
    where = diag["shader_location"]
    assert shader[where["line"] - 1][where["column"] - 1:].startswith(DST_DECLARATION)
    assert diag["shader_instruction"] is None  # GLSL: the line says it


def test_text_shows_the_attribute_line_then_the_shader_line(capsys):
    out = _run(capsys, WRONG_BINDING, "text")
    block = out[out.index("error[VKS412]"):]
    attribute = block.index('"output_0_binding": 1,')
    shader = block.index(f"   4 | {DST_DECLARATION}")
    assert attribute < shader < block.index("= help:")
    assert "(line 4 of `shader_code`)" in block[shader:block.index("= help:")]


def test_sarif_relates_the_declaration_where_it_is_in_the_file(capsys):
    results = json.loads(_run(capsys, WRONG_BINDING, "sarif"))["runs"][0]["results"]
    [result] = [r for r in results if r["ruleId"] == "VKS412"]
    assert result["properties"]["shaderLocation"] == {"line": 4, "column": 1}
    [related] = result["relatedLocations"]
    assert related["message"]["text"] == "line 4, column 1 of shader_code"
    region = related["physicalLocation"]["region"]
    # Inside the one-line JSON string, through its \n escapes, on the declaration.
    assert _file_text_at(WRONG_BINDING, region["startLine"],
                         region["startColumn"]).startswith(DST_DECLARATION)
    own = result["locations"][0]["physicalLocation"]["region"]
    assert _file_text_at(WRONG_BINDING, own["startLine"], own["startColumn"]).startswith("1,")


def test_github_annotation_is_at_the_attribute_and_names_the_shader_line(capsys):
    [line] = [x for x in _run(capsys, WRONG_BINDING, "github").splitlines()
              if "VKS412" in x]
    assert ",line=17," in line and line.endswith("[shader_code line 4, column 1]")


def test_the_local_size_finding_names_the_local_size_declaration(capsys):
    path = FIXTURES / "glsl" / "invalid" / "glsl-local-size-mismatch.json"
    [diag] = [d for d in json.loads(_run(capsys, path, "json"))["files"][0]["diagnostics"]
              if d["code"] == "VKS421"]
    assert diag["pointer"] == "/workgroup_sizes"
    shader = json.loads(path.read_text())["shader_code"].split("\n")
    assert shader[diag["shader_location"]["line"] - 1].startswith("layout(local_size_x = 16")


def test_a_shader_inside_an_mlir_string_is_found_through_its_escapes(capsys, tmp_path):
    attrs = json.loads(WRONG_BINDING.read_text())
    model = tmp_path / "model.mlir"
    model.write_text(
        "module {\n  func.func @main(%a: tensor<64xf32>) -> tensor<64xf32> {\n"
        '    %0 = tosa.custom %a {domain_name = "com.arm.VulkanCustomShader", '
        f'operator_name = "scale", implementation_attrs = {mlir_string(json.dumps(attrs))}}}'
        " : (tensor<64xf32>) -> tensor<64xf32>\n    return %0 : tensor<64xf32>\n  }\n}\n")
    results = json.loads(_run(capsys, model, "sarif"))["runs"][0]["results"]
    [result] = [r for r in results if r["ruleId"] == "VKS412"]
    region = result["relatedLocations"][0]["physicalLocation"]["region"]
    assert _file_text_at(model, region["startLine"], region["startColumn"]).startswith(
        DST_DECLARATION)
    out = _run(capsys, model, "text")
    assert f"   4 | {DST_DECLARATION}" in out[out.index("error[VKS412]"):]


# -- embedded SPIR-V: the instruction the finding comes from --------------------------------

def _spirv_op(tmp_path, **changes) -> object:
    attrs = json.loads((FIXTURES / "spirv" / "valid" / "copy_f32.json").read_text())
    path = tmp_path / "op.json"
    path.write_text(json.dumps({**attrs, **changes}, indent=2))
    return path


def test_json_names_the_binding_decoration_of_embedded_spirv(capsys, tmp_path):
    path = _spirv_op(tmp_path, output_0_binding=2)  # the shader's `outp` is at binding 1
    diag = _dangling_output(json.loads(_run(capsys, path, "json"))["files"][0]["diagnostics"])
    assert diag["shader_instruction"] == "OpDecorate %outp Binding 1"
    assert diag["shader_location"] is None  # base64 has no lines to show


def test_text_sarif_and_github_show_the_instruction(capsys, tmp_path):
    path = _spirv_op(tmp_path, output_0_binding=2)
    text = _run(capsys, path, "text")
    block = text[text.index("error[VKS412]"):]
    assert block.index('"output_0_binding": 2,') \
        < block.index("= shader_code: OpDecorate %outp Binding 1") < block.index("= help:")
    [result] = [r for r in json.loads(_run(capsys, path, "sarif"))["runs"][0]["results"]
                if r["ruleId"] == "VKS412"]
    assert result["properties"]["shaderInstruction"] == "OpDecorate %outp Binding 1"
    assert "[shader_code: OpDecorate %outp Binding 1]" in result["message"]["text"]
    assert "relatedLocations" not in result
    [line] = [x for x in _run(capsys, path, "github").splitlines() if "VKS412" in x]
    # (GitHub's own escape for %)
    assert "[shader_code: OpDecorate %25outp Binding 1]" in line


def test_a_problem_inside_push_constants_has_no_shader_location(capsys, tmp_path):
    # Its column inside the push_constants string is not a place in the shader (the JSON
    # output used to report it as shader_location).
    attrs = json.loads((FIXTURES / "glsl" / "valid" / "push-constant-scale.json").read_text())
    path = tmp_path / "op.json"
    path.write_text(json.dumps(dict(attrs, push_constants="scale: 4,, bias: 4"), indent=2))
    diagnostics = json.loads(_run(capsys, path, "json"))["files"][0]["diagnostics"]
    [syntax] = [d for d in diagnostics if d["code"] == "VKS210"]
    assert syntax["pointer"] == "/push_constants" and syntax["shader_location"] is None
    line = _file_text_at(path, syntax["location"]["line"], syntax["location"]["column"])
    assert line.startswith(", bias")  # the place inside the string is kept
