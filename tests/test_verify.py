"""`tosa-vkshader verify` and `tosa_vkshader.testing`: the reference and its failures, the
failure database, the seed, the output formats, what the device showed on an example,
push constants, op JSON files, constraints on the inputs and ULP tolerances. Every op
runs for real on lavapipe; the ops are small (64 elements) to keep each run short.
"""

from __future__ import annotations

import json
import shlex
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from test_verify_planted import OPS, REFERENCES, planted_model, verify_cli

from tosa_vkshader import Options
from tosa_vkshader.cli import main
from tosa_vkshader.codegen import op_from_shader
from tosa_vkshader.diagnostics import Severity
from tosa_vkshader.testing import inputs, verify

from conftest import ROOT

pytestmark = pytest.mark.runtime

DISPATCH = Options(workgroup_semantics="dispatch")
T = "tensor<64xf32>"
RELU = f"{REFERENCES}:relu"


def relu_model(folder, variant: str = "nan_relu", name: str = "relu.mlir"):
    """The NaN-dropping ReLU (or its twin) on 64 float32 elements."""
    op = op_from_shader(OPS / f"{variant}.comp", name="relu", workgroup_sizes=[1, 1, 1],
                        options=DISPATCH)
    path = folder / name
    path.write_text(op.to_mlir([T], [T], options=DISPATCH))
    return path


def glsl_model(folder, body: str, workgroups=(1, 1, 1), types=(T, T),
               options: Options = DISPATCH):
    shader = ("#version 460\nlayout(local_size_x = 64) in;\n"
              "layout(set = 0, binding = 0) readonly buffer In { float x[]; };\n"
              "layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };\n"
              f"void main() {{ uint i = gl_GlobalInvocationID.x; {body} }}\n")
    op = op_from_shader(shader, language="GLSL", workgroup_sizes=list(workgroups),
                        options=options)
    path = folder / "op.mlir"
    path.write_text(op.to_mlir([types[0]], [types[1]], options=options))
    return path


def reference_file(folder, text: str):
    path = folder / "ref.py"
    path.write_text(textwrap.dedent(text))
    return path


# -- the reference ------------------------------------------------------------------------

def test_a_reference_that_cannot_be_imported_stops_with_its_own_traceback(capsys, tmp_path):
    ref = reference_file(tmp_path, """\
        import numpy as np
        import numpyy

        def relu(x):
            return np.maximum(x, 0)
        """)
    code, out, err = verify_cli(capsys, relu_model(tmp_path), "--reference", f"{ref}:relu",
                                "--no-database", "-o", tmp_path / "out")
    assert code == 2
    assert f"{ref}:2:1: error[VKS971] the reference {ref}:relu could not be imported: " \
           "ModuleNotFoundError: No module named 'numpyy'" in err
    traceback = err.split("traceback of the reference (your code), most recent call last:")[1]
    assert f'File "{ref}", line 2, in <module>' in traceback
    assert "tosa_vkshader" not in traceback and "importlib" not in traceback
    assert not (tmp_path / "out").exists()


def test_a_reference_that_raises_or_answers_wrongly(capsys, tmp_path):
    ref = reference_file(tmp_path, """\
        import numpy as np

        def explodes(x):
            return np.maximum(x, 0) / helper(x)

        def helper(x):
            raise ZeroDivisionError("no")

        def too_many(x):
            return np.maximum(x, 0), x

        def wrong_shape(x):
            return np.maximum(x, 0)[:10]

        def wide_ints(x):
            return np.full(64, 300)

        def nothing(x):
            x.sort()
        """)
    model = relu_model(tmp_path)
    code, _, err = verify_cli(capsys, model, "--reference", f"{ref}:explodes",
                              "--no-database", "--seed", 1)
    assert code == 2
    assert f"{ref}:7:1: error[VKS971] the reference {ref}:explodes raised " \
           "ZeroDivisionError: no on the inputs argument 0 = float32[64]: all 0.0" in err
    traceback = err.split("most recent call last:")[1]
    assert traceback.count(f'File "{ref}"') == 2 and "tosa_vkshader" not in traceback
    # each wrong answer named as it is, with the repair for it (not another one's)
    for name, said, hint in (
            ("too_many", "returned 2 value(s); the model has 1 result(s)",
             "return one array per result"),
            ("wrong_shape", "returned an array of shape [10] (10 element(s)) for result_0, "
                            "which is float32 [64]",
             "return an array of the result's shape [64]"),
            ("nothing", "returned None for result_0, which is float32 [64]",
             "return a numpy array of float32 values in the shape [64]")):
        code, _, err = verify_cli(capsys, model, "--reference", f"{ref}:{name}",
                                  "--no-database")
        assert code == 2 and f"error[VKS971] the reference {ref}:{name} {said}" in err, err
        assert f"help: {hint}" in err
        assert "saturate" not in err
    code, _, err = verify_cli(capsys, model, "--reference", f"{ref}:absent", "--no-database")
    assert code == 2 and f"the reference module {ref} has no function 'absent'" in err
    assert "name one of its functions: explodes, helper, nothing, too_many, wide_ints, " \
           "wrong_shape" in err


# -- the failure database, the seed and the output formats --------------------------------

def test_failures_are_kept_replayed_first_and_forgotten_once_fixed(capsys, tmp_path,
                                                                 monkeypatch):
    monkeypatch.chdir(tmp_path)
    model = relu_model(tmp_path)
    code, out, err = verify_cli(capsys, model, "--reference", RELU, "--seed", 3,
                                "--format", "json")
    assert code == 1
    report = json.loads(out)
    [found] = [d for d in report["files"][0]["diagnostics"] if d["code"] == "VKS970"]
    assert found["severity"] == "error" and found["location"]["line"] == 3
    assert "expected nan" in found["message"] and found["hint"].startswith(
        "reproduce: tosa-vkshader run")
    saved = list((tmp_path / ".tosa-vkshader" / "verify-db").rglob("*"))
    assert [p for p in saved if p.is_file()], "the counterexample is kept"
    # the default output folder: .tosa-vkshader/verify/MODEL-NAME/counterexample
    first = np.load(tmp_path / ".tosa-vkshader/verify/relu/counterexample/in_0.npy")
    assert np.isnan(first).sum() == 1 and np.count_nonzero(first) == 1
    # another seed, one example: the saved failure is run first and found again
    code, out, err = verify_cli(capsys, model, "--reference", RELU, "--seed", 4,
                                "--examples", 1, "--format", "github")
    assert code == 1
    assert "counterexample (replayed from the failure database)" in err  # (the summary)
    assert f"::error file={model},line=3" in out and "VKS970" in out
    again = np.load(tmp_path / ".tosa-vkshader/verify/relu/counterexample/in_0.npy")
    np.testing.assert_array_equal(again, first)
    # the op fixed at the same path: the saved inputs pass and are forgotten
    relu_model(tmp_path, "nan_relu_ok")
    code, out, _ = verify_cli(capsys, model, "--reference", RELU, "--seed", 4,
                              "--examples", 1)
    assert code == 0 and out.startswith("no counterexample in 2 example(s)")
    assert not [p for p in (tmp_path / ".tosa-vkshader" / "verify-db").rglob("*")
                if p.is_file()]


def test_a_seed_draws_the_same_examples_and_sarif_shows_the_counterexample(capsys,
                                                                          tmp_path):
    """The same seed: the same examples, so the same shrunk counterexample, from Python
    and from the command line (whose SARIF log carries it)."""
    model = relu_model(tmp_path)
    first = verify(model, RELU, examples=30, seed=11, database=None).counterexample
    assert first is not None
    code, out, _ = verify_cli(capsys, model, "--reference", RELU, "--seed", 11,
                              "--examples", 30, "--no-database", "--format", "sarif",
                              "-o", tmp_path / "o")
    assert code == 1
    [result] = json.loads(out)["runs"][0]["results"]
    assert result["ruleId"] == "VKS970" and result["level"] == "error"
    again = np.load(tmp_path / "o" / "counterexample" / "in_0.npy")
    np.testing.assert_array_equal(again, first.inputs[0])


# -- what the device showed, on every example ---------------------------------------------

def test_the_write_check_and_the_validation_layer_apply_to_every_example(capsys, tmp_path):
    """A guard that stops one element short leaves it unwritten on every example
    (VKS962); a store past the result shows under --validate (VKS966). Each is the
    counterexample's failure, reported beside it. (The static analysis sees both too:
    lowered to warnings, as a user would in pyproject.toml, to watch the device.)"""
    ref = reference_file(tmp_path, """\
        def plus_one(x):
            return x + 1
        """)
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.tosa-vkshader]\nseverity = { VKS518 = "warning", '
                      'VKS522 = "warning" }\n')
    lowered = Options(workgroup_semantics="dispatch",
                      severity={"VKS518": Severity.WARNING, "VKS522": Severity.WARNING})
    short = glsl_model(tmp_path, "if (i < 63u) y[i] = x[i] + 1.0;", options=lowered)
    code, out, err = verify_cli(capsys, short, "--reference", f"{ref}:plus_one",
                                "--no-database", "-o", tmp_path / "a", "--config", config)
    assert code == 1
    assert "error[VKS970] counterexample (shrunk in 0 step(s)): the device showed VKS962" \
        in err and "error[VKS962] result_0 `tensor<64xf32>`" in err
    assert "input 0: float32[64]: all 0.0" in out
    big = "tensor<1000xf32>"
    unguarded = glsl_model(tmp_path, "y[i] = x[i] + 1.0;", (16, 1, 1), (big, big),
                           options=lowered)
    code, out, err = verify_cli(capsys, unguarded, "--reference", f"{ref}:plus_one",
                                "--no-database", "--examples", 5, "--validate",
                                "-o", tmp_path / "b", "--config", config)
    assert code == 1
    assert "the device showed VKS966" in err and "error[VKS966]" in err
    command = (tmp_path / "b" / "counterexample" / "command.txt").read_text()
    assert command.rstrip().endswith("--validate")


# -- push constants, op JSON files, constraints, ULP ---------------------------------------

def test_push_constants_reach_the_reference_by_name(capsys, tmp_path):
    folder = ROOT / "examples" / "scale_i8_push"
    ref = reference_file(tmp_path, """\
        import numpy as np

        def scale(q, *, multiplier, offset):
            return np.clip(q.astype(np.int32) * multiplier + offset, -128, 127).astype(np.int8)
        """)
    code, out, err = verify_cli(capsys, folder / "model.mlir", "--reference", f"{ref}:scale",
                                "--push-constants", folder / "push_constants.bin",
                                "--no-database", "--seed", 2)
    assert code == 0, out + err
    assert out.startswith("no counterexample in 100 example(s) (seed 2)")


def test_an_op_json_file_is_verified_and_reproduced_with_its_types(capsys, tmp_path):
    op = op_from_shader(OPS / "nan_relu.comp", name="relu", workgroup_sizes=[1, 1, 1],
                        options=DISPATCH)
    document = tmp_path / "relu.json"
    document.write_text(op.implementation_attrs)
    code, out, err = verify_cli(capsys, document, "--operands", T, "--results", T,
                                "--reference", RELU, "--no-database", "--seed", 1,
                                "-o", tmp_path / "out")
    assert code == 1, out + err
    command = (tmp_path / "out" / "counterexample" / "command.txt").read_text().strip()
    argv = shlex.split(command)
    assert argv[2:7] == [str(document), "--operands", T, "--results", T]
    assert main(argv[1:]) == 1
    assert "error[VKS960]" in capsys.readouterr().err


def test_constraints_keep_values_out_of_the_inputs(capsys, tmp_path):
    """The NaN-dropping ReLU passes when NaN is ruled out: by inputs(st) in the
    reference module, or by --no-nan."""
    model = relu_model(tmp_path)
    ref = reference_file(tmp_path, """\
        import numpy as np

        def relu(x):
            return np.maximum(x, np.float32(0))

        def inputs(st):
            return [st.operand(0, allow_nan=False, min_value=-1e6, max_value=1e6)]
        """)
    code, out, err = verify_cli(capsys, model, "--reference", f"{ref}:relu", "--no-database",
                                "--seed", 1, "--examples", 40)
    assert code == 0, out + err
    code, out, err = verify_cli(capsys, model, "--reference", RELU, "--no-nan",
                                "--no-database", "--seed", 1, "--examples", 40)
    assert code == 0, out + err


def test_a_range_clear_of_the_subnormals_is_drawn(capsys, tmp_path):
    """`st.operand(0, min_value=0.25)` (a reciprocal's inputs) leaves no subnormal to
    draw: the range alone is used, on float32 and float16 operands alike."""
    ref = reference_file(tmp_path, """\
        import numpy as np

        def reciprocal(x):
            return (1 / x.astype(np.float32)).astype(x.dtype)

        def inputs(st):
            return [st.operand(0, min_value=0.25, max_value=8)]
        """)
    for element, glsl in (("f32", "float"), ("f16", "float16_t")):
        shader = ("#version 460\n"
                  "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n"
                  "layout(local_size_x = 64) in;\n"
                  f"layout(binding = 0) readonly buffer In {{ {glsl} x[]; }};\n"
                  f"layout(binding = 1) writeonly buffer Out {{ {glsl} y[]; }};\n"
                  "void main() { uint i = gl_GlobalInvocationID.x; "
                  f"y[i] = {glsl}(1.0 / float(x[i])); }}\n")
        t = f"tensor<64x{element}>"
        op = op_from_shader(shader, language="GLSL", workgroup_sizes=[1, 1, 1],
                            options=DISPATCH)
        model = tmp_path / f"reciprocal_{element}.mlir"
        model.write_text(op.to_mlir([t], [t], options=DISPATCH))
        code, out, err = verify_cli(capsys, model, "--reference", f"{ref}:reciprocal",
                                    "--no-database", "--seed", 3, "--examples", 30)
        assert code == 0, out + err
        assert "no counterexample in 30 example(s)" in out + err


def test_ulp_tolerance_counts_representable_values(capsys, tmp_path):
    """An op one float32 step away from its reference: 1 ULP apart, so --ulp 1 passes,
    --ulp 0 fails, and the command that reproduces it compares with --ulp 0. (One step
    past infinity is NaN: the reference rejects such inputs with assume.)"""
    model = glsl_model(tmp_path, "y[i] = uintBitsToFloat(floatBitsToUint(x[i]) + 1u);")
    ref = reference_file(tmp_path, """\
        import numpy as np
        from tosa_vkshader.testing import assume

        def same(x):
            assume(np.isfinite(x).all())
            return x
        """)
    code, out, err = verify_cli(capsys, model, "--reference", f"{ref}:same", "--ulp", 1,
                                "--no-database", "--seed", 5)
    assert code == 0, out + err
    code, out, err = verify_cli(capsys, model, "--reference", f"{ref}:same", "--ulp", 0,
                                "--no-database", "--seed", 5, "-o", tmp_path / "out")
    assert code == 1
    assert "by more than 0 ULP" in err and "(1 ULP apart)" in err
    command = (tmp_path / "out" / "counterexample" / "command.txt").read_text()
    assert command.split()[-2:] == ["--ulp", "0"]
    assert main(shlex.split(command)[1:]) == 1
    assert "(1 ULP apart)" in capsys.readouterr().err


def test_inputs_of_a_dynamic_dimension_take_sizes_around_the_workgroup(tmp_path):
    """`testing.inputs` for a `tensor<?xf32>` op of local size 64 dispatched 4 times:
    arrays of 1, 63, 64, 65 and 129 elements, every one float32 (no device needed)."""
    sizes = set()

    @settings(max_examples=60, database=None, deadline=None)
    @given(inputs(planted_model(tmp_path, "partial_workgroup_ok")))
    def draw(example):
        (x,) = example
        assert x.dtype == np.float32 and x.ndim == 1
        sizes.add(x.size)

    draw()
    assert sizes == {1, 63, 64, 65, 129}
