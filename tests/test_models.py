"""Custom ops read out of models: MLIR text, .tosa flatbuffers and op-level JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tosa_vkshader import Options, check_file, check_paths, validate
from tosa_vkshader.config_file import load_options

from conftest import FIXTURES

MODELS = FIXTURES / "models"
sys.path.insert(0, str(MODELS))
import build  # noqa: E402  (fixtures/models/build.py: the fixture generator)

SERIALIZED = [MODELS / name for name in build.SERIALIZED]


# How an op is wired in its function (VKS531 unused result, VKS532 repeated operand) is
# known from MLIR and .tosa; an op-level JSON object does not say.
WIRING = {"VKS531", "VKS532"}


def _facts(path: Path, skip: set[str] = frozenset()) -> Counter:
    """What a diagnostic says, without where it is (that differs between file kinds)."""
    report = check_file(path, load_options(path.parent))
    return Counter((d.code, d.severity, d.message, d.pointer, d.hint)
                   for d in report.diagnostics if d.code not in skip)


@pytest.mark.parametrize("mlir", SERIALIZED, ids=[p.name for p in SERIALIZED])
def test_the_same_op_gives_the_same_diagnostics_from_mlir_tosa_and_json(mlir):
    from_mlir = _facts(mlir)
    assert from_mlir, "every serialized fixture has something to report"
    assert _facts(mlir.with_suffix(".tosa")) == from_mlir
    assert _facts(mlir.with_suffix(".ops.json")) == _facts(mlir, skip=WIRING)


def test_a_model_without_custom_ops_says_nothing_was_checked(tmp_path):
    # The MLIR fixture and its .tosa twin serialized by tosa-opt: one note each, never a
    # silent clean result for a model where nothing was looked at.
    mlir = MODELS / "no-custom-op.mlir"
    tosa = tmp_path / "no-custom-op.tosa"
    tosa.write_bytes(build.serialize(mlir))
    for path in (mlir, tosa):
        report = check_file(path, Options())
        assert [d.code for d in report.diagnostics] == ["VKS506"], path
        assert report.ok and "nothing in it was checked" in report.diagnostics[0].message


def test_generated_model_fixtures_are_fresh():
    result = subprocess.run([sys.executable, str(MODELS / "build.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def _reader_ops(path: Path) -> list[tuple]:
    from tosa_vkshader.api import read_file

    source = read_file(path, Options())
    return [(op.context.operator_name, op.context.domain_name,
             [t.text for t in op.context.operands], [t.text for t in op.context.results],
             op.attributes) for op in source.ops]


@pytest.mark.parametrize("mlir", SERIALIZED, ids=[p.name for p in SERIALIZED])
def test_mlir_reader_sees_the_ops_tosa_opt_serialized(mlir):
    """The JSON twin is what tosa-opt made of the MLIR (read back with tosa-tools' own
    reader): names, tensor types and attributes must be what our MLIR reader sees."""
    from tosa_vkshader.op_context import domain_kind

    expected = []
    for op in json.loads(mlir.with_suffix(".ops.json").read_text()):
        if domain_kind(op["domain_name"]) == "other":
            continue
        try:
            attrs = json.loads(op["implementation_attrs"])
        except json.JSONDecodeError:
            continue  # the trailing-comma op: no attributes to compare
        expected.append((op["operator_name"], op["domain_name"], op["inputs"],
                         op["outputs"], attrs))
    assert _reader_ops(mlir) == expected
    assert _reader_ops(mlir.with_suffix(".tosa")) == expected


def _tosa_opt(args: list[str], source: Path, target: Path) -> None:
    subprocess.run([str(build.tosa_opt()), str(source), *args, "-o", str(target)],
                   check=True, capture_output=True)


@pytest.mark.parametrize("name,args", [
    ("pretty.mlir", ["--mlir-print-op-generic"]),  # pretty -> tosa-opt's generic form
    ("tensor_shaders.mlir", ["--mlir-print-op-generic"]),
    ("generic.mlir", []),  # generic -> tosa-opt's pretty form
])
def test_the_other_form_printed_by_tosa_opt_reads_the_same(tmp_path, name, args):
    printed = tmp_path / name
    _tosa_opt(args, MODELS / name, printed)
    text = printed.read_text()
    assert ('"tosa.custom"(' in text) == bool(args)
    assert _facts(printed) == _facts(MODELS / name)
    # And each diagnostic is placed on a line of a custom op, inside its attributes.
    for diag in check_file(printed).diagnostics:
        line = text.splitlines()[diag.location.line - 1]
        assert "tosa.custom" in line
        assert diag.location.column > line.index("implementation_attrs") or \
            diag.code in ("VKS503", "VKS504", "VKS530", *WIRING), diag


def test_folders_are_walked_for_json_mlir_and_tosa():
    reports = check_paths([MODELS / "dispatch"], load_options(MODELS / "dispatch"))
    assert sorted(Path(r.path).name for r in reports) == [
        "dispatch.mlir", "dispatch.ops.json", "dispatch.tosa"]


# -- MLIR: positions through escapes, forms, robustness ---------------------------------

def _mlir(attrs_literal: str, types: str = "(tensor<8xf32>) -> tensor<8xf32>",
          operands: str = "%x", extra: str = "") -> str:
    return ("func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {\n"
            f"  %0 = tosa.custom {operands} {{domain_name = \"com.arm.VulkanCustomShader\", "
            f"operator_name = \"k\", implementation_attrs = {attrs_literal}{extra}}} : {types}\n"
            "  return %0 : tensor<8xf32>\n}\n")


def _check_mlir(text: str, **options):
    return validate(text, Options(**options), path="model.mlir")


def test_positions_map_through_every_mlir_escape():
    attrs = {"entry_point": "main", "workgroup_sizes": [8, 8, 1], "comment": 'a\\b "c" é\n€',
             "input_01_binding": 0}
    literal = build.mlir_string(json.dumps(attrs, ensure_ascii=False, indent=1))
    assert "\\C3\\A9" in literal and "\\E2\\82\\AC" in literal and "\\0A" in literal
    text = _mlir(literal)
    report = _check_mlir(text)
    diag = next(d for d in report.diagnostics if d.code == "VKS111")
    line = text.splitlines()[diag.location.line - 1]
    assert line[diag.location.column - 1:].startswith('\\22input_01_binding\\22')
    # The end of the key is mapped too: the caret covers exactly the quoted key.
    assert diag.location.end_column - diag.location.column == len('\\22input_01_binding\\22')


def test_hand_escaped_quotes_and_backslashes_are_decoded():
    literal = '"{\\"entry_point\\": \\"main\\", \\"workgroup_sizes\\": [8, 8, 1], ' \
              '\\"x\\": \\"a\\\\\\\\b\\"}"'  # MLIR \" and \\\\ : JSON "a\\\\b" = a\\b
    report = _check_mlir(_mlir(literal), select=("VKS1",))
    assert [d.code for d in report.diagnostics] == ["VKS115"]


def test_a_custom_op_without_operands_and_with_several_results():
    attrs = {"entry_point": "main", "workgroup_sizes": [1, 1, 1]}
    text = _mlir(build.mlir_string(json.dumps(attrs)), operands="",
                 types="() -> (tensor<8xf32>, tensor<2xi8>)")
    report = _check_mlir(text)
    messages = [d.message for d in report.diagnostics if d.code == "VKS512"]
    assert len(messages) == 2
    assert messages[1].startswith("result 1 (tensor<2xi8>) has no output_1_* attributes")


def test_mlir_mentions_of_tosa_custom_in_comments_and_strings_are_not_ops():
    text = ('// tosa.custom %x {domain_name = "com.arm.VulkanCustomShader"}\n'
            '%0 = "tosa.const"() {note = "tosa.custom %x {"} : () -> tensor<8xf32>\n')
    report = _check_mlir(text)
    assert [d.code for d in report.diagnostics] == ["VKS506"] and report.source.ops == []


@pytest.mark.parametrize("text", [
    "%0 = tosa.custom",
    "%0 = tosa.custom %",
    '%0 = tosa.custom %x {domain_name = "com.arm.VulkanCustomShader", implementation_attrs',
    '%0 = "tosa.custom"(%x) <{domain_name = "com.arm.VulkanCustomShader"',
    '%0 = tosa.custom %x {domain_name = "com.arm.VulkanCustomShader", '
    'implementation_attrs = "{}", operator_name = "k"} : (tensor<8xf32> -> tensor<8xf32>',
    '%0 = tosa.custom %x {domain_name = "com.arm.VulkanCustomShader", '
    'implementation_attrs = "{}", operator_name = "k"} : (tensor<8xf32>) tensor<8xf32>',
])
def test_truncated_or_malformed_ops_are_reported_not_raised(text):
    report = _check_mlir(text)
    assert [d.code for d in report.diagnostics] == ["VKS500"]
    assert report.diagnostics[0].location.line == 1


def test_mlir_that_is_not_utf8_is_reported():
    report = validate(b'%0 = tosa.custom \xff', path="model.mlir")
    assert report.codes == ["VKS101"]


def _where(report) -> list[tuple]:
    return [(d.code, d.message, d.pointer, d.location.line, d.location.column)
            for d in report.diagnostics]


@pytest.mark.parametrize("prefix", [b"", "\ufeff".encode()], ids=["plain", "with-bom"])
def test_a_model_read_from_its_open_file_reports_as_a_small_one(tmp_path, prefix):
    """Models of a megabyte or more are read a piece at a time from their open file: the
    findings, their lines and columns are those of the same model read whole."""
    small = (MODELS / "wiring.mlir").read_bytes()
    padding = b"".join(b"// weights %07d\n" % n for n in range(80_000))  # 1.4 MB at the end
    big = tmp_path / "big.mlir"
    big.write_bytes(prefix + small + padding)
    plain = tmp_path / "plain.mlir"
    plain.write_bytes(small)
    assert big.stat().st_size > 1 << 20
    options = load_options(MODELS)
    expected = _where(check_file(plain, options))
    assert expected and _where(check_file(big, options)) == expected


def test_a_large_model_that_is_not_utf8_is_reported_at_the_byte(tmp_path):
    padding = b"".join(b"// weights %07d\n" % n for n in range(80_000))
    big = tmp_path / "big.mlir"
    big.write_bytes(padding + b"%0 = tosa.custom \xff\n")
    report = check_file(big)
    assert report.codes == ["VKS101"]
    assert (report.diagnostics[0].location.line,
            report.diagnostics[0].location.column) == (80_001, 18)


def test_large_attribute_strings_honour_the_size_limit():
    attrs = {"entry_point": "main", "workgroup_sizes": [1, 1, 1], "pad": "x" * 4000}
    report = _check_mlir(_mlir(build.mlir_string(json.dumps(attrs))), max_file_size=1024)
    assert report.codes == ["VKS105"]


# -- .tosa: damage and the missing reader --------------------------------------------------

def test_a_file_that_is_not_a_tosa_flatbuffer(tmp_path):
    path = tmp_path / "model.tosa"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    report = check_file(path)
    assert report.codes == ["VKS501"]
    assert "file identifier" in report.diagnostics[0].message
    assert str(report.diagnostics[0].location) == str(path)


def test_truncated_tosa_files_are_reported_never_raised(tmp_path):
    data = (MODELS / "pretty.tosa").read_bytes()
    path = tmp_path / "cut.tosa"
    for size in list(range(0, 64, 7)) + list(range(64, len(data), max(1, len(data) // 40))):
        path.write_bytes(data[:size])
        report = check_file(path)
        assert "VKS501" in report.codes or report.source.ops, size


def test_the_tosa_reader_missing_is_an_error_not_a_pass():
    code = ("import sys; sys.modules['tosa'] = None\n"
            "from tosa_vkshader import check_file\n"
            f"r = check_file({str(MODELS / 'pretty.tosa')!r})\n"
            "print(r.codes, r.diagnostics[0].hint)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.startswith("['VKS930']")
    assert "tosa-tools" in result.stdout


# -- op-level JSON and the context rules ----------------------------------------------------

def _op(attrs: dict, inputs=None, outputs=None, **fields) -> str:
    op = {"domain_name": "com.arm.VulkanCustomShader", "operator_name": "k", **fields,
          "implementation_attrs": attrs}
    if inputs is not None:
        op["inputs"] = inputs
    if outputs is not None:
        op["outputs"] = outputs
    return json.dumps(op, indent=2)


def _tensor_attrs(in_formats, out_formats) -> dict:
    attrs = {"entry_point": "main", "workgroup_sizes": [8, 1, 1]}
    binding = 0
    for direction, formats in (("input", in_formats), ("output", out_formats)):
        for index, fmt in enumerate(formats):
            attrs.update({f"{direction}_{index}_binding": binding,
                          f"{direction}_{index}_descriptorset": 0,
                          f"{direction}_{index}_vkdescriptortype":
                              "VK_DESCRIPTOR_TYPE_TENSOR_ARM",
                          f"{direction}_{index}_vkformat": fmt})
            binding += 1
    return attrs


@pytest.mark.parametrize("element,vkformat,code", [
    ("f32", "VK_FORMAT_R32_SFLOAT", None),
    ("f32", "VK_FORMAT_R32G32B32A32_SFLOAT", None),
    ("f16", "VK_FORMAT_R16_SFLOAT", None),
    ("bf16", "VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM", None),
    ("bf16", "VK_FORMAT_R16_SFLOAT", "VKS514"),
    ("f16", "VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM", "VKS514"),
    ("f8E4M3FN", "VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM", None),
    ("i8", "VK_FORMAT_R8_SINT", None),
    ("i8", "VK_FORMAT_R8_UINT", "VKS515"),
    ("ui8", "VK_FORMAT_R8_UINT", None),
    ("ui8", "VK_FORMAT_R8_SINT", "VKS515"),
    ("ui8", "VK_FORMAT_R8_UNORM", None),  # an 8-bit image read as float, not a flip
    ("i8", "VK_FORMAT_R8G8B8A8_SNORM", None),
    ("i8", "VK_FORMAT_R8_UNORM", "VKS515"),
    ("ui8", "VK_FORMAT_R8_SNORM", "VKS515"),
    ("i8", "VK_FORMAT_R32_SFLOAT", "VKS514"),
    ("i16", "VK_FORMAT_R16_SINT", None),
    ("i16", "VK_FORMAT_R8_SINT", "VKS514"),
    ("i32", "VK_FORMAT_R32_SINT", None),
    ("i32", "VK_FORMAT_R32_SFLOAT", "VKS514"),
    ("i1", "VK_FORMAT_R8_BOOL_ARM", None),
    ("i1", "VK_FORMAT_R8_UINT", None),
    ("i1", "VK_FORMAT_R8_SINT", "VKS515"),
    ("i1", "VK_FORMAT_R32_SFLOAT", "VKS514"),
    ("f32", "VK_FORMAT_B10G11R11_UFLOAT_PACK32", "VKS514"),
    ("i48", "VK_FORMAT_R32_SINT", None),  # no Vulkan format carries i48: not judged
])
def test_element_type_against_vkformat(element, vkformat, code):
    tensor = f"tensor<2x4x{element}>"
    report = validate(_op(_tensor_attrs([vkformat], ["VK_FORMAT_R32_SFLOAT"]),
                          [tensor], ["tensor<2x4xf32>"]), path="op.json")
    found = [d for d in report.diagnostics if d.code in ("VKS514", "VKS515")]
    assert [d.code for d in found] == ([code] if code else []), report.diagnostics
    if code:
        assert found[0].pointer == "/input_0_vkformat"
        assert found[0].message.startswith(
            f"input_0_vkformat is {vkformat} but operand 0 is {tensor}")


def test_bf16_mismatch_names_the_bfloat_format():
    report = validate(_op(_tensor_attrs(["VK_FORMAT_R16_SFLOAT"], []), ["tensor<4xbf16>"], []),
                      path="op.json")
    diag = next(d for d in report.diagnostics if d.code == "VKS514")
    assert diag.hint == "use VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM"


def test_operand_and_result_counts():
    attrs = _tensor_attrs(["VK_FORMAT_R32_SFLOAT"] * 3, [])
    report = validate(_op(attrs, ["tensor<4xf32>"], ["tensor<4xf32>"]), path="op.json")
    by_code = {d.code: d for d in report.diagnostics}
    assert set(by_code) >= {"VKS511", "VKS512"}
    assert [d.pointer for d in report.diagnostics if d.code == "VKS511"] == [
        "/input_1_binding", "/input_2_binding"]
    assert by_code["VKS512"].message == (
        "result 0 (tensor<4xf32>) has no output_0_* attributes; the converter reads "
        "output_0 for an op with 1 result(s)")


def test_an_op_object_without_types_is_not_counted():
    report = validate(_op(_tensor_attrs(["VK_FORMAT_R32_SFLOAT"], [])), path="op.json")
    assert not any(d.code.startswith("VKS51") for d in report.diagnostics)


def test_op_level_problems_point_at_the_op_fields():
    text = _op({"entry_point": "main", "workgroup_sizes": [1, 1, 1]}, operator_name="  ",
               domain_name="com.arm.vulkancustomshader")
    report = validate(text, path="op.json")
    lines = text.splitlines()
    for code, field in (("VKS503", "domain_name"), ("VKS504", "operator_name")):
        diag = next(d for d in report.diagnostics if d.code == code)
        assert field in lines[diag.location.line - 1]
        assert diag.pointer == ""


def test_other_domains_are_skipped_and_a_file_of_only_them_says_nothing_was_checked():
    other = {"domain_name": "com.example.Kernels", "operator_name": "k",
             "implementation_attrs": "definitely not JSON"}
    report = validate(json.dumps(other), path="op.json")
    assert report.codes == ["VKS506"] and report.source.ops == []
    assert report.ok and (report.diagnostics[0].location.line,
                          report.diagnostics[0].location.column) == (1, 1)
    # Beside one of ours, the other domain's op is skipped without a word.
    ours = {"domain_name": "com.arm.VulkanCustomShader", "operator_name": "k",
            "implementation_attrs": {"entry_point": "main", "workgroup_sizes": [1, 1, 1]}}
    report = validate(json.dumps([other, ours]), path="ops.json")
    assert report.codes == [] and len(report.source.ops) == 1


def test_a_list_of_bare_attribute_objects():
    good = {"entry_point": "main", "workgroup_sizes": [1, 1, 1]}
    report = validate(json.dumps([good, {**good, "entry_point": "1main"}], indent=1))
    assert report.codes == ["VKS201"]
    assert report.diagnostics[0].location.line > 5  # the second object, not the first


def test_an_empty_list_is_not_an_attribute_object():
    assert validate("[]").codes == ["VKS102"]


# -- reporting of .tosa locations -------------------------------------------------------

def test_text_and_json_output_name_the_tosa_operator(capsys):
    from tosa_vkshader.cli import main

    path = MODELS / "tensor_shaders.tosa"
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert (f'{path}: region 0 "main", block 0 "main", operator 1 "add_f32_rank": '
            "error[VKS516]") in out
    assert main(["check", "--format", "json", str(path)]) == 1
    data = json.loads(capsys.readouterr().out)
    location = data["files"][0]["diagnostics"][0]["location"]
    assert location["line"] == 0 and "operator" in location["logical"]


def test_stdin_filename_chooses_the_mlir_reader(monkeypatch, capsys):
    import io

    from tosa_vkshader.cli import main

    data = (MODELS / "unsigned.mlir").read_bytes()
    monkeypatch.setattr(sys, "stdin", type("S", (), {"buffer": io.BytesIO(data)})())
    assert main(["check", "-", "--stdin-filename", "unsigned.mlir"]) == 1
    assert "unsigned.mlir:11:499: error[VKS514]" in capsys.readouterr().out



def test_every_model_rule_has_a_model_fixture():
    from tosa_vkshader.rule_registry import RULES

    from conftest import expected_fixtures

    covered = {e.split("@")[0] for p, codes in expected_fixtures() if "models" in p.parts
               for e in codes}
    # VKS501 (damaged .tosa) and VKS930 (no .tosa reader) are tested above; VKS521 is a
    # note of `new` (test_runtime_truth.py).
    wanted = {c for c in RULES if c.startswith("VKS5")} - {"VKS501", "VKS521"}
    assert wanted - covered == set()


_GLSL = ("#version 460\nlayout(local_size_x = 64) in;\n"
         "layout(set = 0, binding = 0) readonly buffer In { float a[]; } i;\n"
         "layout(set = 0, binding = 1) writeonly buffer Out { float b[]; } o;\n"
         "void main() {\n  uint x = gl_GlobalInvocationID.x;\n  o.b[x] = i.a[x];\n}\n")


def _glsl_op(result: str, operand: str, name: str, code: str) -> str:
    attrs = {"entry_point": "main", "workgroup_sizes": [64, 1, 1], "shader_language": "GLSL",
             "shader_code": code, **{
                 f"{d}_0_{k}": v for d, b in (("input", 0), ("output", 1)) for k, v in (
                     ("binding", b), ("descriptorset", 0),
                     ("vkdescriptortype", "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"),
                     ("vkformat", "VK_FORMAT_R32_SFLOAT"))}}
    return (f"  {result} = tosa.custom {operand} {{domain_name = "
            f"\"com.arm.VulkanCustomShader\", operator_name = \"{name}\", implementation_attrs = "
            f"{build.mlir_string(json.dumps(attrs))}}} : (tensor<64xf32>) -> tensor<64xf32>\n")


def test_a_compile_error_in_the_second_of_two_shaders_is_placed_and_shown(tmp_path, capsys):
    from tosa_vkshader.cli import main

    broken = _GLSL.replace("i.a[x];", "i.a[x] + undefined_thing;")
    path = tmp_path / "two.mlir"
    path.write_text(_glsl_op("%0", "%x", "good", _GLSL) + _glsl_op("%1", "%0", "bad", broken))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    diag = next(d for d in check_file(path).diagnostics if d.code == "VKS300")
    line = path.read_text().splitlines()[diag.location.line - 1]
    assert diag.location.line == 2 and line[diag.location.column - 1:].startswith(
        "undefined_thing;")
    # The text report shows the line of the op that has the error, not of the first op.
    assert "o.b[x] = i.a[x] + undefined_thing;   (line 7 of `shader_code`)" in out
