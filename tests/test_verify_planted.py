"""`tosa-vkshader verify` against ops with planted numeric bugs, each beside its correct
twin (`fixtures/verify/`): verify finds every bug within 100 examples and shrinks it to a
small input, the printed `run` command shows the same failure again, and the twins pass.

The bugs: a wrong tail path in the last, partial workgroup (a dynamic dimension, so the
sizes around multiples of the workgroup are what finds it), rounding half up on negative
int8 values, int8 addition that wraps instead of saturating, a ReLU that turns NaN into
0, a float16 accumulator, a tile's halo loaded one element too far. Seeds are fixed.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from tosa_vkshader import Options
from tosa_vkshader.cli import main
from tosa_vkshader.codegen import op_from_shader

from conftest import FIXTURES

pytestmark = pytest.mark.runtime

OPS = FIXTURES / "verify"
REFERENCES = OPS / "references.py"
DISPATCH = Options(workgroup_semantics="dispatch")

# op: (operand types, result types, workgroup_sizes, the reference in references.py)
CASES = {
    "partial_workgroup": (["tensor<?xf32>"], ["tensor<?xf32>"], [4, 1, 1], "twice_plus_one"),
    "round_half": (["tensor<256xi8>"], ["tensor<256xi8>"], [4, 1, 1], "round_half_away"),
    "saturate_i8": (["tensor<256xi8>"] * 2, ["tensor<256xi8>"], [4, 1, 1], "saturating_add"),
    "nan_relu": (["tensor<1000xf32>"], ["tensor<1000xf32>"], [16, 1, 1], "relu"),
    "sum_f16": (["tensor<4096xf16>"], ["tensor<1xf16>"], [1, 1, 1], "sum_in_order"),
    "tile_edge": (["tensor<1024xf32>"], ["tensor<1024xf32>"], [16, 1, 1], "box3"),
}


def planted_model(folder: Path, op: str) -> Path:
    """The model of ``op`` (a shader in fixtures/verify), made as a user would: `new`
    then `emit mlir`, with the case's types and dispatch."""
    base = op.removesuffix("_ok")
    operands, results, workgroups, _ = CASES[base]
    made = op_from_shader(OPS / f"{op}.comp", name=op, workgroup_sizes=workgroups,
                          options=DISPATCH)
    path = folder / f"{op}.mlir"
    path.write_text(made.to_mlir(operands, results, options=DISPATCH))
    return path


def verify_cli(capsys, *argv: object) -> tuple[int, str, str]:
    code = main(["verify", *(str(a) for a in argv)])
    out, err = capsys.readouterr()
    return code, out, err


def first_index(text: str, code: str) -> str:
    found = re.search(rf"\[{code}\][^\n]*?first at index (\[[0-9, ]*\])", text)
    assert found, text
    return found.group(1)


@pytest.mark.parametrize("op", sorted(CASES))
def test_verify_finds_the_planted_bug_shrinks_it_and_passes_the_twin(capsys, tmp_path, op):
    reference = f"{REFERENCES}:{CASES[op][3]}"
    out_dir = tmp_path / "out"
    code, out, err = verify_cli(capsys, planted_model(tmp_path, op), "--reference",
                                reference, "--seed", 1, "--no-database", "-o", out_dir)
    assert code == 1, out + err
    assert "counterexample after" in out and "error[VKS970]" in err
    # shrunk: a few non-zero elements at most (the rest zero), and for the dynamic
    # dimension a size that leaves a partial workgroup
    folder = out_dir / "counterexample"
    inputs = [np.load(folder / f"in_{k}.npy") for k in range(len(CASES[op][0]))]
    assert sum(int(np.count_nonzero(x)) for x in inputs) <= 4, inputs
    if op == "partial_workgroup":
        (size,) = inputs[0].shape
        assert size % 64 and size < 64, size
        assert (folder / "model.mlir").is_file()
    # the files agree with the reference, and the printed command fails the same way
    namespace: dict = {}
    exec(REFERENCES.read_text(), namespace)
    expected = namespace[CASES[op][3]](*inputs)
    np.testing.assert_array_equal(np.load(folder / "expected_0.npy"), expected)
    command = (folder / "command.txt").read_text().strip()
    assert f"reproduce: {command}" in out
    argv = shlex.split(command)
    assert argv[:2] == ["tosa-vkshader", "run"]
    assert main(argv[1:]) == 1
    _, rerun_err = capsys.readouterr()
    assert first_index(rerun_err, "VKS960") == first_index(err, "VKS970")
    # the correct twin passes the same 100 examples
    code, out, err = verify_cli(capsys, planted_model(tmp_path, f"{op}_ok"), "--reference",
                                reference, "--seed", 1, "--no-database", "-o", out_dir)
    assert code == 0, out + err
    assert out.startswith("no counterexample in 100 example(s) (seed 1)")
