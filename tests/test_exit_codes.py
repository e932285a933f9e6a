"""Exit codes exactly as documented, in every command: 0 no errors, 1 errors in the files,
2 a usage or environment problem (no such file, no compiler, unusable configuration)."""

from __future__ import annotations

import shutil

from tosa_vkshader.cli import main

from conftest import FIXTURES

GLSL_OP = FIXTURES / "glsl" / "valid" / "buffer-scale.json"
SHADER = FIXTURES / "codegen" / "shaders" / "spec_glsl_example.comp"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _no_compiler(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.tosa-vkshader]\nglslc = "{tmp_path / "no-such-glslc"}"\n')
    monkeypatch.chdir(tmp_path)


def test_check_without_a_compiler_is_an_environment_problem(capsys, tmp_path, monkeypatch):
    _no_compiler(tmp_path, monkeypatch)
    shutil.copy(GLSL_OP, tmp_path / "op.json")  # the config nearest to the checked file
    code, out, _ = run(capsys, "check", "op.json")
    assert code == 2
    assert "error[VKS910]" in out


def test_new_without_a_compiler_is_an_environment_problem(capsys, tmp_path, monkeypatch):
    _no_compiler(tmp_path, monkeypatch)
    code, _, err = run(capsys, "new", str(SHADER), "-o", str(tmp_path / "op.json"))
    assert code == 2
    assert "error[VKS910]" in err
    assert not (tmp_path / "op.json").exists()


def test_new_with_a_missing_shader_is_a_usage_error(capsys, tmp_path):
    code, out, err = run(capsys, "new", str(tmp_path / "missing.comp"), "-o",
                         str(tmp_path / "op.json"))
    assert code == 2 and out == ""
    assert err == f"tosa-vkshader new: {tmp_path / 'missing.comp'}: no such file\n"


def test_findings_still_exit_1_next_to_a_working_compiler(capsys, tmp_path):
    broken = tmp_path / "op.json"
    shutil.copy(FIXTURES / "invalid" / "leading-zero-index.json", broken)
    assert run(capsys, "check", str(broken), str(GLSL_OP))[0] == 1
    assert run(capsys, "check", str(GLSL_OP))[0] == 0
