"""Fixes carried by diagnostics: where the rule knows the repair, the diagnostic has a
``fix`` (edits located in the checked text, and how safe it is), and every door applies
those same edits: ``tosa_vkshader.apply_fixes``, the ``fix`` command (the unsafe ones only
with ``--unsafe-fixes``), the JSON and text reports."""

from __future__ import annotations

import json

import pytest

import tosa_vkshader
from tosa_vkshader import Applicability, Diagnostic, Edit, Fix, Location, Severity
from tosa_vkshader.cli import main

from conftest import FIXTURES

# A `_type` that disagrees with the descriptor type: which one was meant is a guess.
MISMATCH = """{
  "entry_point": "main",
  "workgroup_sizes": [64, 1, 1],
  "input_0_binding": 0,
  "input_0_descriptorset": 0,
  "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
  "input_0_vkformat": "VK_FORMAT_R32_SFLOAT",
  "input_0_type": "Image"
}
"""


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_an_unsafe_fix_is_offered_but_applied_only_when_asked_for(tmp_path, capsys):
    path = tmp_path / "op.json"
    path.write_text(MISMATCH)
    _, out, _ = run(capsys, "check", str(path))
    assert "warning[VKS229]" in out and "[*]" not in out
    assert out.rstrip().endswith("1 fixable with `tosa-vkshader fix --unsafe-fixes`")
    [found] = tosa_vkshader.check_file(path).diagnostics
    assert found.fix.applicability is Applicability.UNSAFE

    _, _, err = run(capsys, "fix", str(path))
    assert path.read_text() == MISMATCH and "left: 1 warning(s)/info(s) (VKS229)" in err
    code, _, err = run(capsys, "fix", "--unsafe-fixes", str(path))
    assert code == 0, err
    assert path.read_text() == MISMATCH.replace('"Image"', '"Buffer"')
    assert "replaced by 'Buffer' (what VK_DESCRIPTOR_TYPE_STORAGE_BUFFER binds)" in err


def test_apply_fixes_gives_what_the_fix_command_writes(tmp_path, capsys):
    text = (FIXTURES / "codegen" / "fix" / "near_miss_keys.json").read_text()
    text = text.replace('"VK_FORMAT_R8_SINT"', '"VK_FORMAT_A8_UNORM_KHR"', 1)  # an alias
    report = tosa_vkshader.validate(text, path="op.json")
    fixed, applied = tosa_vkshader.apply_fixes(text, report.diagnostics)
    assert len(applied) == 8
    assert tosa_vkshader.validate(fixed).diagnostics == []
    path = tmp_path / "op.json"
    path.write_text(text)
    run(capsys, "fix", str(path))
    # `fix` also adds the `_type` members no diagnostic asks for.
    assert json.loads(path.read_text()) == {**json.loads(fixed),
                                            "input_0_type": "Tensor",
                                            "output_0_type": "Tensor"}


def test_edits_are_ranges_of_the_checked_text_written_as_the_text_writes_them():
    """Inside a JSON string (an op object whose implementation_attrs is a string) the
    key is escaped, and so is its replacement."""
    attrs = {"entryPoint": "main", "workgroup_sizes": [1, 1, 1]}
    text = json.dumps({"domain_name": "com.arm.VulkanCustomShader", "operator_name": "k",
                       "implementation_attrs": json.dumps(attrs)})
    [diag] = tosa_vkshader.validate(text).diagnostics
    [edit] = diag.fix.edits
    assert (edit.range.line, edit.range.end_line) == (1, 1)
    assert text[edit.range.column - 1:edit.range.end_column - 1] == '\\"entryPoint\\"'
    assert edit.text == '\\"entry_point\\"'
    fixed, _ = tosa_vkshader.apply_fixes(text, [diag])
    assert json.loads(json.loads(fixed)["implementation_attrs"]) == {
        "entry_point": "main", "workgroup_sizes": [1, 1, 1]}


def test_a_model_marks_its_fixable_diagnostics_too(tmp_path, capsys):
    model = (FIXTURES / "models" / "pretty.mlir").read_text().replace(
        "entry_point", "entryPoint", 1)
    path = tmp_path / "model.mlir"
    path.write_text(model)
    _, out, _ = run(capsys, "check", str(path))
    assert "= help: did you mean `entry_point`? [*]" in out
    assert "[*] 2 fixable with `tosa-vkshader fix`" in out  # (and input_00_binding)
    _, out, _ = run(capsys, "check", "--format", "json", str(path))
    fixes = [d["fix"] for d in json.loads(out)["files"][0]["diagnostics"] if d["fix"]]
    assert [f["edits"][0]["text"] for f in fixes] == ['\\"entry_point\\"', '\\"input_0_binding\\"']


def _at(line: int, start: int, end: int, text: str, *,
        applicability: Applicability = Applicability.SAFE) -> Diagnostic:
    edit = Edit("/k", tosa_vkshader.diagnostics.Part.VALUE, "",
                Location(None, line, start, line, end), text)
    return Diagnostic("VKS228", Severity.WARNING, "m",
                      fix=Fix(f"{start}-{end}", (edit,), applicability))


@pytest.mark.parametrize(("diagnostics", "expected", "applied"), [
    # Two fixes on one range: the first is taken, the second waits for another round.
    ([_at(1, 2, 4, "X"), _at(1, 3, 5, "Y")], "aXde", ["2-4"]),
    # Apart, both; the order of the edits in the text does not matter.
    ([_at(1, 4, 5, "Y"), _at(1, 1, 2, "X")], "XbcYe", ["4-5", "1-2"]),
    # Two insertions at one place: their order would be a guess.
    ([_at(1, 3, 3, "X"), _at(1, 3, 3, "Y")], "abXcde", ["3-3"]),
    # Unsafe and display-only fixes are not applied by default.
    ([_at(1, 1, 2, "X", applicability=Applicability.UNSAFE),
      _at(1, 2, 3, "Y", applicability=Applicability.DISPLAY_ONLY)], "abcde", []),
])
def test_overlapping_and_unsafe_fixes_are_left_out(diagnostics, expected, applied):
    text, done = tosa_vkshader.apply_fixes("abcde", diagnostics)
    assert text == expected
    assert [fix.title for fix in done] == applied


def test_unsafe_fixes_apply_when_asked_for_and_display_only_never():
    diagnostics = [_at(1, 1, 2, "X", applicability=Applicability.UNSAFE),
                   _at(1, 2, 3, "Y", applicability=Applicability.DISPLAY_ONLY)]
    assert tosa_vkshader.apply_fixes("abcde", diagnostics, unsafe=True)[0] == "Xbcde"


def test_in_a_model_an_op_only_a_person_can_repair_is_left_and_the_others_fixed(tmp_path,
                                                                              capsys):
    model = (FIXTURES / "models" / "pretty.mlir").read_text()
    model = model.replace("entry_point", "entryPoint", 1)  # op 0: repaired
    mask = 'operator_name = "mask_i8", implementation_attrs = "{\\"entry_point\\": \\"main\\", '
    model = model.replace(mask, mask + '\\"entry_point\\": \\"x\\", \\"Input_0_type\\": '
                                       '\\"Tensor\\", ')  # op 1: a key given twice
    path = tmp_path / "model.mlir"
    path.write_text(model)
    code, _, err = run(capsys, "fix", str(path))
    assert code == 1 and "error[VKS620] this op has duplicate keys" in err
    fixed = path.read_text()
    left = next(line for line in fixed.splitlines() if '"mask_i8"' in line)
    assert left == next(line for line in model.splitlines() if '"mask_i8"' in line)
    assert "entryPoint" not in fixed


def test_the_web_fix_repairs_without_building_a_shader(monkeypatch):
    """`POST /v1/fix` answers in the event loop: it applies what the attribute rules
    carry and never enters the shader stage (a compile there would stall every request)."""
    from starlette.testclient import TestClient

    import tosa_vkshader.shader
    from tosa_vkshader.web import create_app

    def no_shaders(*args, **kwargs):
        raise AssertionError("the shader stage was entered")

    monkeypatch.setattr(tosa_vkshader.shader, "build_shaders", no_shaders)
    attrs = json.loads((FIXTURES / "codegen" / "fix" / "glsl_to_embed.json").read_text())
    attrs["entryPoint"] = attrs.pop("entry_point")
    with TestClient(create_app(workers=1)) as client:
        answer = client.post("/v1/fix", json={"text": json.dumps(attrs)}).json()
    assert answer["changed"] and "renamed `entryPoint` to `entry_point`" in answer["changes"]
    assert json.loads(answer["fixed"])["shader_language"] == "GLSL"
