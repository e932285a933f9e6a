"""The command line, through `tosa_vkshader.cli.main` and the installed console script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from tosa_vkshader.cli import main

from conftest import FIXTURES

GOOD = FIXTURES / "valid" / "multi-resource.json"
LEADING_ZERO = FIXTURES / "invalid" / "leading-zero-index.json"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_file_exits_0(capsys):
    code, out, _ = run(capsys, "check", str(GOOD))
    assert code == 0
    assert "0 error(s)" in out


def test_errors_exit_1_with_location_line_and_hint(capsys):
    code, out, _ = run(capsys, "check", str(LEADING_ZERO))
    assert code == 1
    assert f"{LEADING_ZERO}:4:3: error[VKS111] key `input_00_binding`" in out
    assert '"input_00_binding": 0,' in out  # the offending line is shown
    assert "help: did you mean `input_0_binding`?" in out


def test_folders_are_walked_and_config_excludes_apply(capsys, tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[tool.tosa-vkshader]\nexclude = ["skip-*.json"]\n')
    shutil.copy(GOOD, tmp_path / "good.json")
    shutil.copy(LEADING_ZERO, tmp_path / "skip-me.json")
    (tmp_path / "nested").mkdir()
    shutil.copy(LEADING_ZERO, tmp_path / "nested" / "bad.json")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "check", ".", "--format", "json")
    data = json.loads(out)
    assert code == 1
    assert sorted(f["path"] for f in data["files"]) == ["./good.json", "./nested/bad.json"]


def test_usage_errors_exit_2(capsys, tmp_path):
    assert run(capsys, "check")[0] == 2
    assert run(capsys, "check", str(tmp_path / "missing.json"))[0] == 2
    assert run(capsys, "check", "--format", "xml", str(GOOD))[0] == 2
    assert run(capsys)[0] == 2


def test_bad_config_is_a_usage_error_with_a_hint(capsys, tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tosa-vkshader]\nworkgroup-semantic = "dispatch"\n')
    monkeypatch.chdir(tmp_path)
    shutil.copy(GOOD, tmp_path / "op.json")  # the config nearest to the checked file
    code, _, err = run(capsys, "check", "op.json")
    assert code == 2
    assert "VKS901" in err and "did you mean `workgroup-semantics`?" in err


def test_select_and_ignore(capsys):
    bad = FIXTURES / "invalid" / "resource-type-case.json"
    code, out, _ = run(capsys, "check", str(bad), "--ignore", "VKS228")
    assert code == 0 and "VKS228" not in out
    code, out, _ = run(capsys, "check", str(FIXTURES / "invalid" / "misspelled-key.json"),
                       "--select", "VKS2")
    assert code == 0 and "VKS114" not in out


def test_severity_override_from_config(capsys, tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tosa-vkshader]\nseverity = { VKS228 = "error" }\n')
    shutil.copy(FIXTURES / "invalid" / "resource-type-case.json", tmp_path / "a.json")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "check", "a.json")
    assert code == 1 and "error[VKS228]" in out


def test_workgroup_semantics_option_changes_the_limit_check(capsys, tmp_path):
    attrs = json.loads((FIXTURES / "invalid" / "workgroup-over-guaranteed-limit.json")
                       .read_text()) | {"workgroup_sizes": [256, 1, 1]}
    path = tmp_path / "op.json"
    path.write_text(json.dumps(attrs))
    # By default (the runtime's reading) 256 is a workgroup count: within 65535.
    assert "VKS203" not in run(capsys, "check", str(path))[1]
    # Read as the local size (the spec's wording) it is over the guaranteed 128.
    assert "VKS203" in run(capsys, "check", str(path), "--workgroup-semantics",
                           "local-size")[1]
    assert "VKS203" in run(capsys, "check", str(FIXTURES / "invalid" /
                                                 "workgroup-over-guaranteed-limit.json"))[1]


def test_stdin(capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
        b'{"entry_point": "main", "workgroup_sizes": [8, 8]}')))
    code, out, _ = run(capsys, "check", "-", "--stdin-filename", "pasted.json")
    assert code == 1 and "pasted.json:1:44: error[VKS202]" in out


def test_json_format_shape(capsys):
    _, out, _ = run(capsys, "check", str(LEADING_ZERO), "--format", "json")
    data = json.loads(out)
    assert data["version"] == 1
    diag = data["files"][0]["diagnostics"][0]
    assert diag["code"] == "VKS111"
    assert diag["pointer"] == "/input_00_binding"
    assert diag["location"]["line"] == 4
    assert diag["hint"].startswith("did you mean")
    assert data["summary"]["errors"] == 1


def test_sarif_format_shape(capsys):
    _, out, _ = run(capsys, "check", str(LEADING_ZERO), "--format", "sarif")
    log = json.loads(out)
    assert log["version"] == "2.1.0"
    run_ = log["runs"][0]
    result = run_["results"][0]
    assert result["ruleId"] == "VKS111"
    assert run_["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "VKS111"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (4, 3)


def test_github_format(capsys):
    _, out, _ = run(capsys, "check", str(LEADING_ZERO), "--format", "github")
    assert out.startswith(f"::error file={LEADING_ZERO},line=4,col=3,endLine=4,endColumn=21,"
                          "title=VKS111 ")


def test_output_file_is_written(capsys, tmp_path):
    target = tmp_path / "report.json"
    code, out, _ = run(capsys, "check", str(LEADING_ZERO), "--format", "json", "-o",
                       str(target))
    assert code == 1 and out == ""
    assert json.loads(target.read_text())["files"][0]["diagnostics"]


def test_rule_command_explains_a_code(capsys):
    code, out, _ = run(capsys, "rule", "VKS111")
    assert code == 0 and "leading-zero-index" in out and "Bad:" in out
    code, out, _ = run(capsys, "rule")
    assert code == 0 and "VKS233" in out
    assert run(capsys, "rule", "VKS999")[0] == 2


def test_installed_console_script_runs():
    exe = shutil.which("tosa-vkshader", path=str(__import__("pathlib").Path(
        sys.executable).parent))
    if exe is None:
        pytest.fail("console script tosa-vkshader is not installed next to this Python")
    done = subprocess.run([exe, "check", str(LEADING_ZERO)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    assert "VKS111" in done.stdout
    assert textwrap.dedent(done.stderr) == ""


def test_shader_errors_show_the_shader_line_not_the_json_string(capsys):
    bad = FIXTURES / "glsl" / "invalid" / "glsl-syntax-error.json"
    code, out, _ = run(capsys, "check", str(bad))
    assert code == 1
    assert "dst.data[i] = src.data[i] * 2.0;   (line 8 of `shader_code`)" in out


def test_check_imports_only_what_it_needs():
    """A commit hook pays the start-up on every commit: `check` on plain attributes must
    not load pydantic, code generation, the web stack, the compiler or the SPIR-V reader."""
    probe = ("import sys; from tosa_vkshader.cli import main; "
             f"main(['check', {str(FIXTURES / 'valid' / 'tensor-op.json')!r}]); "
             "heavy = [m for m in ('pydantic', 'tosa_vkshader.codegen', 'tosa_vkshader.web', "
             "'starlette', 'tosa_vkshader.compile', 'tosa_vkshader.spirv') "
             "if m in sys.modules]; print('HEAVY', heavy)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert "HEAVY []" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("columns", [60, 120])
def test_help_is_laid_out_for_the_terminal_width(columns):
    done = subprocess.run([sys.executable, "-m", "tosa_vkshader", "check", "--help"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": str(columns)})
    assert done.returncode == 0
    # The prose after the usage block (which argparse never breaks inside a choice list).
    prose = done.stdout.split("\n\n", 1)[1].splitlines()
    widest = max(len(line) for line in prose)
    assert columns - 20 < widest <= columns - 2


@pytest.mark.parametrize("op", [FIXTURES / "glsl" / "valid" / "buffer-scale.json",
                                sorted((FIXTURES / "spirv" / "valid").glob("*.json"))[0]])
def test_a_warm_check_of_a_shader_loads_no_process_machinery(tmp_path, op):
    """With every shader in the cache, nothing is compiled or validated: the compiler
    runners and, without targets, the device profiles stay unloaded."""
    probe = ("import sys; from tosa_vkshader.cli import main; "
             f"main(['check', {str(op)!r}]); "
             "print('LOADED', [m for m in ('tosa_vkshader.compile.runner', "
             "'tosa_vkshader.compile.process', 'tosa_vkshader.compile.reference', "
             "'tosa_vkshader.devices') "
             "if m in sys.modules])")
    env = {**os.environ, "TOSA_VKSHADER_CACHE_DIR": str(tmp_path / "cache")}
    subprocess.run([sys.executable, "-m", "tosa_vkshader", "check", str(op)], env=env,
                   capture_output=True, timeout=120, check=False)  # fills the cache
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, env=env)
    assert "LOADED []" in done.stdout, done.stdout + done.stderr


def test_the_program_leaves_at_once_with_its_output_whole_and_main_returns(tmp_path):
    """The program (the console script, ``python -m``) flushes its output and leaves
    without the interpreter's shutdown; main(), as tests and embedding code call it,
    returns the exit status and leaves the process alone."""
    folder = tmp_path / "many"
    folder.mkdir()
    bad = (FIXTURES / "invalid" / "bad-workgroup-shape.json").read_text()
    for number in range(200):  # a report far larger than a pipe's buffer
        (folder / f"op_{number:03d}.json").write_text(bad)
    done = subprocess.run([sys.executable, "-m", "tosa_vkshader", "check", "--format",
                           "json", str(folder)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    report = json.loads(done.stdout)  # every byte arrived
    assert report["summary"]["files"] == 200
    probe = ("from tosa_vkshader.cli import main; "
             f"code = main(['check', {str(GOOD)!r}]); print('RETURNED', code)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert "RETURNED 0" in done.stdout, done.stdout + done.stderr
