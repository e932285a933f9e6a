"""The documented ways to verify an op: the README's command as printed, and the example
test file examples/verify_leaky_relu/test_leaky_relu.py (`verify` from Python, and a
`@given` test of one's own with `tosa_vkshader.testing.inputs`), run here as a user runs
them."""

from __future__ import annotations

import importlib.util
import shlex

import pytest

from tosa_vkshader.cli import main

from conftest import ROOT

pytestmark = pytest.mark.runtime

EXAMPLE = ROOT / "examples" / "verify_leaky_relu"


def test_the_readme_verify_command_runs_as_printed(capsys, tmp_path, monkeypatch):
    section = (ROOT / "README.md").read_text().split("## Verify an op against numpy", 1)[1]
    command = section.split("```bash", 1)[1].split("```", 1)[0]
    command = command.split("tosa-vkshader verify", 1)[1].replace("\\\n", " ")
    shown = section.split("```text", 1)[1].split("```", 1)[0].strip().splitlines()
    monkeypatch.chdir(ROOT)
    code = main(["verify", *shlex.split(command), "--database", str(tmp_path / "db")])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    printed = out.strip().splitlines()
    assert printed[0] == shown[0]
    assert printed[1].split(" in ")[0] == shown[1].split(" in ")[0]
    assert printed[1].endswith("1 runner process(es), on llvmpipe (LLVM 15.0.6, 256 bits)")


def test_the_example_test_file_passes():
    spec = importlib.util.spec_from_file_location("test_leaky_relu",
                                                  EXAMPLE / "test_leaky_relu.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.test_leaky_relu_matches_numpy()
    module.test_leaky_relu_with_my_own_given_test()
