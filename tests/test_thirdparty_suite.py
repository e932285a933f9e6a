"""Third-party shaders through the documented command line only (issue 27's acceptance):
`tosa-vkshader new` -> `check` -> `emit mlir` -> `run --expect`, each step a process of
its own as a user types it, and what `run` computes compared with the authors' numpy
answer (tests/third_party/cases.py). A case the reference runtime cannot run must stop at
the step its `limitation` names, with that code and a message naming the limitation.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from third_party.cases import CASES, Case

pytestmark = pytest.mark.runtime


def tool(folder, *args: str) -> subprocess.CompletedProcess[str]:
    """One `tosa-vkshader` command, as a user runs it: default compiler choice (the
    reference runtime's glslc for GLSL when installed), no configuration of ours."""
    env = {k: v for k, v in os.environ.items() if k != "TOSA_VKSHADER_REFERENCE_GLSLC"}
    return subprocess.run([sys.executable, "-m", "tosa_vkshader", *args], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=300)


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


@pytest.mark.parametrize("case", CASES, ids=str)
def test_third_party_shader_runs_as_numpy_says(case: Case, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'user'\n")
    for step, args in steps(case, tmp_path):
        done = tool(tmp_path, *args)
        said = done.stdout + done.stderr
        limitation = case.limitation
        if limitation is not None and limitation.step == step:
            assert done.returncode == 1, said
            assert f"[{limitation.code}]" in said and limitation.phrase in said, said
            return
        assert done.returncode == 0, f"{step}: {' '.join(args)}\n{said}"
        if step == "check":
            assert said.startswith("0 error(s)") or "\n0 error(s)" in said, said
    assert case.limitation is None, f"{case.name} ran although a limitation was expected"
    for k, want in enumerate(case.expected):
        got = np.load(tmp_path / "out" / f"result_{k}.npy")
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=case.rtol, atol=case.atol)
