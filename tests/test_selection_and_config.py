"""No silent gates: a typo in --select/--ignore or in [tool.tosa-vkshader] is a usage error
(exit 2, with did-you-mean), every configuration problem is reported at once at its own
line, and a selection that leaves no error-level rule says so."""

from __future__ import annotations

import shutil

import pytest

from tosa_vkshader.cli import main

from conftest import FIXTURES

LEADING_ZERO = FIXTURES / "invalid" / "leading-zero-index.json"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("flag", "typo", "suggestion"), [
    ("--select", "VSK1", "VKS1"),
    ("--ignore", "VKS1111", "VKS111"),
    ("--select", "vks2O3", "VKS203"),
])
def test_a_code_matching_no_rule_is_a_usage_error_with_did_you_mean(capsys, flag, typo,
                                                                    suggestion):
    code, out, err = run(capsys, "check", str(LEADING_ZERO), flag, f"VKS2,{typo}")
    assert code == 2
    assert out == ""  # no report: the run did not happen with a selection nobody chose
    assert f"error[VKS933] `{flag}` names {typo.upper()!r}, which matches no rule" in err
    assert f"did you mean `{suggestion}`?" in err


def test_a_code_with_no_close_rule_gets_no_guess(capsys):
    code, _, err = run(capsys, "check", str(LEADING_ZERO), "--ignore", "E501")
    assert code == 2
    assert "`--ignore` names 'E501', which matches no rule" in err
    assert "did you mean" not in err


def test_known_codes_and_prefixes_still_select(capsys):
    code, out, err = run(capsys, "check", str(LEADING_ZERO), "--select", "VKS1,VKS111",
                         "--ignore", "VKS9")
    assert code == 1 and "error[VKS111]" in out and err == ""


def test_a_selection_without_any_error_rule_says_so(capsys):
    code, out, err = run(capsys, "check", str(LEADING_ZERO), "--select", "VKS115")
    assert code == 0  # nothing selected can fail: allowed, but never silent
    assert "warning[VKS934] the selection (select = ['VKS115']) leaves no error-level rule" \
        in err
    assert "0 error(s)" in out


def test_raising_a_warning_to_an_error_keeps_the_gate_closed(capsys, tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tosa-vkshader]\nselect = ["VKS115"]\nseverity = { VKS115 = "error" }\n')
    monkeypatch.chdir(tmp_path)
    shutil.copy(LEADING_ZERO, tmp_path / "op.json")  # the config nearest to the checked file
    code, _, err = run(capsys, "check", "op.json")
    assert "VKS934" not in err and code == 0


def test_every_config_problem_is_reported_at_its_own_line(capsys, tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "models"\n\n'
        "[tool.tosa-vkshader]\n"
        'select = ["VSK1"]\n'
        'workgroup-semantic = "dispatch"\n'
        '  ignore = "VKS9999"\n'
        'severity = { VKS203 = "error", VKS2 = "info" }\n'
        "max-depth = 0\n")
    shutil.copy(LEADING_ZERO, tmp_path / "op.json")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "check", "op.json")
    assert code == 2 and out == ""
    config = tmp_path / "pyproject.toml"
    lines = [line for line in err.splitlines() if not line.startswith("  =")]
    assert lines == [
        f"{config}:5:1: error[VKS933] `select` names 'VSK1', which matches no rule "
        "(`tosa-vkshader rule` lists them)",
        f"{config}:6:1: error[VKS901] unknown option `workgroup-semantic` in "
        "[tool.tosa-vkshader]",
        f"{config}:7:3: error[VKS933] `ignore` names 'VKS9999', which matches no rule "
        "(`tosa-vkshader rule` lists them)",
        f"{config}:8:1: error[VKS933] `severity` names 'VKS2', which is a prefix, not one rule",
        f"{config}:9:1: error[VKS901] `max-depth` must be a positive integer, got 0",
    ]
    assert "did you mean `VKS1`?" in err and "did you mean `workgroup-semantics`?" in err


def test_a_toml_syntax_error_points_at_its_line(capsys, tmp_path):
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.tosa-vkshader]\nselect = [VKS1]\n')
    code, _, err = run(capsys, "check", "--config", str(config), str(LEADING_ZERO))
    assert code == 2
    assert err.startswith(f"{config}:2:11: error[VKS901] cannot read {config}")


def test_an_unreadable_config_is_exit_2_in_every_command(capsys, tmp_path):
    config = tmp_path / "missing" / "pyproject.toml"
    shader = FIXTURES / "codegen" / "shaders" / "relu.comp"
    out = str(tmp_path / "out")
    for argv in (["check", str(LEADING_ZERO)], ["fix", "--diff", str(LEADING_ZERO)],
                 ["new", str(shader), "-o", out], ["compile", str(LEADING_ZERO), "-o", out]):
        code, _, err = run(capsys, *argv, "--config", str(config))
        assert code == 2, argv
        assert "error[VKS901] cannot read" in err, argv
