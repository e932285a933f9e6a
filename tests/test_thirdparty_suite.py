"""Third-party shaders through the documented command line only (issue 27's acceptance):
`tosa-vkshader new` -> `check` -> `emit mlir` -> `run --expect`, each step a command line
as a user types it, in the user's folder, and what `run` computes compared with the
authors' numpy answer (tests/third_party/cases.py). A case the reference runtime cannot run
must stop at the step its `limitation` names, with that code and a message naming the
limitation.

Every case runs its command lines through the program's entry point
(`tosa_vkshader.cli.main`, what the `tosa-vkshader` script calls) in this process: a
process of its own for each of 4 steps of 79 cases cost the suite more than a minute of
interpreter start-ups. One case of each language also runs as the processes a user starts
(`python -m tosa_vkshader`), so the process boundary is tested too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from third_party.cases import CASES, Case

from tosa_vkshader.cli import main
from tosa_vkshader.compile.compiler import REFERENCE_ENV

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.runtime

def in_process(capsys) -> Callable[[Path, list[str]], tuple[int, str]]:
    """The command line through the program's entry point, in the folder (the test's
    working directory): what it returns and prints."""
    def tool(folder: Path, args: list[str]) -> tuple[int, str]:
        assert Path.cwd() == folder
        code = main(args)
        out, err = capsys.readouterr()
        return code, out + err

    return tool


def as_process(folder: Path, args: list[str]) -> tuple[int, str]:
    """One `tosa-vkshader` process, as a user starts it: default compiler choice (the
    reference runtime's glslc for GLSL when installed), no configuration of ours."""
    env = {k: v for k, v in os.environ.items() if k != REFERENCE_ENV}
    done = subprocess.run([sys.executable, "-m", "tosa_vkshader", *args], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture
def user_folder(tmp_path, monkeypatch) -> Path:
    """A user's project folder, the working directory, with the default compiler choice
    (the suite otherwise turns the reference runtime's glslc off, see conftest)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'user'\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(REFERENCE_ENV, raising=False)
    return tmp_path


def steps(case: Case, folder) -> list[tuple[str, list[str]]]:
    inputs = []
    for k, array in enumerate(case.inputs):
        np.save(folder / f"in{k}.npy", array)
        inputs += ["-i", f"in{k}.npy"]
    expect = []
    for k, array in enumerate(case.expected):
        np.save(folder / f"want{k}.npy", array)
        expect += ["--expect", f"want{k}.npy"]
    push = [f"--push-constant={value}" for value in case.push_values]
    if case.push_constants is not None:
        (folder / "push.bin").write_bytes(case.push_constants)
        push = ["--push-constants", "push.bin"]
    return [
        ("new", ["new", str(case.path), *case.flags, "--name", case.name.replace("-", "_"),
                 "--operands", ",".join(case.operands), "--results", ",".join(case.results),
                 "-o", "op.json"]),
        ("check", ["check", "op.json"]),
        ("emit", ["emit", "mlir", "op.json", "-o", "op.mlir"]),
        ("run", ["run", "op.mlir", *inputs, *push, *expect, "-o", "out",
                 "--rtol", str(case.rtol), "--atol", str(case.atol)]),
    ]


def runs_as_numpy_says(case: Case, folder: Path,
                       tool: Callable[[Path, list[str]], tuple[int, str]]) -> None:
    """The case's four steps, each command line through ``tool``, then the results."""
    for step, args in steps(case, folder):
        code, said = tool(folder, args)
        limitation = case.limitation
        if limitation is not None and limitation.step == step:
            assert code == 1, said
            assert f"[{limitation.code}]" in said and limitation.phrase in said, said
            return
        assert code == 0, f"{step}: {' '.join(args)}\n{said}"
        if step == "check":
            assert said.startswith("0 error(s)") or "\n0 error(s)" in said, said
    assert case.limitation is None, f"{case.name} ran although a limitation was expected"
    for k, want in enumerate(case.expected):
        got = np.load(folder / "out" / f"result_{k}.npy")
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=case.rtol, atol=case.atol)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_third_party_shader_runs_as_numpy_says(case: Case, user_folder, capsys):
    runs_as_numpy_says(case, user_folder, in_process(capsys))


AS_PROCESSES = ["include-header-functions", "hlsl-structured-buffers"]


@pytest.mark.parametrize("case", [c for c in CASES if c.name in AS_PROCESSES], ids=str)
def test_third_party_shader_runs_as_numpy_says_in_the_processes_a_user_starts(
        case: Case, user_folder):
    runs_as_numpy_says(case, user_folder, as_process)
