"""`run` asks the device for proof where the static analysis has none, on lavapipe.

Every wrong op here has its static codes lowered in a configuration (as a user would, so
that it really runs), and no `--validate` is given: where the index analysis does not
prove an op's buffer accesses in bounds, or its shader declares a uniform block, the run
adds the Khronos validation layer by itself and says so (VKS968), and what the layer
finds fails the run (VKS966). Ops whose accesses are proven run without the layer, and the
correct ones with no finding at all.
"""

from __future__ import annotations

import numpy as np
import pytest
from coverage_runs import Op, model_text
from test_coverage_truth import (
    ADD_GUARDED,
    ADD_UNGUARDED,
    BUFFER_2D,
    FOUR_EACH,
    GRID_STRIDE,
    IMAGE_2D,
    REDUCE,
    REDUCE_NO_BARRIER,
    TENSOR_3D,
    VEC4,
)
from test_run_findings import SCATTER, UNGUARDED, cli, lowered, lowering_config, model

import tosa_vkshader
from tosa_vkshader import Options
from tosa_vkshader.codegen import op_from_shader
from tosa_vkshader.diagnostics import Severity

# (the lines of the accesses, and GL_ARM_tensors, come from the reference runtime's compiler)
pytestmark = [pytest.mark.runtime, pytest.mark.usefixtures("reference_glslc")]

# Reads one element past its input in the last invocation: lavapipe returns 0 there, so
# the last result is silently wrong and every element is written.
STENCIL = UNGUARDED.replace("y[i] = x[i] + 1.0;", "y[i] = x[i] + x[i + 1u];")
# Every element is written by the first store; the second goes where the data says.
COPY_THEN_SCATTER = SCATTER.replace("y[to[i]] = x[i];", "y[i] = x[i]; y[to[i]] = x[i];")


def over_dispatched(tmp_path):
    """1,024 invocations of an unguarded store for 1,000 elements (VKS522 lowered), its
    input and the configuration that lowers it."""
    t = "tensor<1000xf32>"
    path = tmp_path / "over.mlir"
    path.write_text(model(UNGUARDED, [t], [t], [16, 1, 1], lowered("VKS522")))
    np.save(tmp_path / "x.npy", np.arange(1000, dtype=np.float32))
    return path, tmp_path / "x.npy", lowering_config(tmp_path, "VKS522")


def test_an_unguarded_over_dispatch_fails_without_validate(capsys, tmp_path):
    """Every element is written (the write check has nothing to say) and the buffer is
    exactly the result (no guard zone): the analysis proves the store past the end, so
    the run asks GPU-assisted validation, which shows it."""
    path, x, config = over_dispatched(tmp_path)
    code, _, err = cli(capsys, "run", path, "-i", x, "--config", config)
    assert code == 1
    assert "warning[VKS522]" in err  # the static finding, lowered
    assert "info[VKS968] custom op 0: with workgroup_sizes [16, 1, 1] OpStore to `Out` " \
           "(line 7) reaches 24 element(s) past result 0 (tensor<1000xf32>) " \
           "(gl_GlobalInvocationID.x from 1000 to 1023)" in err
    assert "the run used the Khronos validation layer (gpu-assisted)" in err
    assert "error[VKS966] custom op 0, shader line " in err
    assert "[VUID-vkCmdDispatch-None-02706] Descriptor index 0 access out of bounds. " \
           "Descriptor size is 4000 and highest byte accessed was 4003" in err

    code, _, err = cli(capsys, "run", path, "-i", x, "--config", config, "--no-validate")
    assert code == 0 and "VKS966" not in err and "VKS968" not in err
    assert "warning[VKS522]" in err
    code, _, err = cli(capsys, "run", path, "-i", x, "--no-validate", "--validate-checks",
                       "core")
    assert code == 2 and "--validate-checks asks for the layer that --no-validate" in err


def test_a_read_past_the_end_of_an_input():
    """The write check cannot see a read: the last element comes out wrong and written.
    A prepared model decides once; its second run starts with the layer at once."""
    t = "tensor<1024xf32>"
    x = np.arange(1024, dtype=np.float32)
    with tosa_vkshader.prepare(model(STENCIL, [t], [t], [16, 1, 1], Options())) as prepared:
        first, second = prepared.run([x]), prepared.run([x])
    for result in (first, second):
        [finding] = result.findings
        assert finding.code == "VKS966" and not result.ok
        assert "Descriptor size is 4096 and highest byte accessed was 4099" in finding.message
        [note] = [d for d in result.notes if d.code == "VKS968"]
        assert "OpLoad from `In` (line 7) reaches 1 element(s) past operand 0" in note.message
    np.testing.assert_array_equal(first[0][:-1], x[:-1] + x[1:])
    assert first[0][-1] == x[-1]  # (read 0 past the end)


def test_a_data_dependent_store_past_the_end():
    """Where the second store goes depends on the data: undecided statically, shown by
    the layer. Every element is written, so only the layer can tell."""
    t = "tensor<64xf32>"
    to = np.arange(64, dtype=np.int32)
    to[7] = 64
    x = np.arange(64, dtype=np.float32)
    result = tosa_vkshader.run(model(COPY_THEN_SCATTER, [t, "tensor<64xi32>"], [t],
                                     [1, 1, 1], Options()), [x, to])
    [finding] = result.findings
    assert finding.code == "VKS966" and "Global invocation ID (x, y, z) = (7, 0, 0 )" \
        in finding.message
    [note] = [d for d in result.notes if d.code == "VKS968"]
    assert "whether OpStore to `Out` (line 6) stays inside result 0 (tensor<64xf32>) with " \
           "workgroup_sizes [1, 1, 1] is not decided" in note.message
    np.testing.assert_array_equal(result[0], x)


def test_an_unwritten_finding_names_the_dispatch_that_covers_the_result():
    """A guarded 2-D shader dispatched along x only: rows 8-23 stay unwritten, and the
    analysis knows the dispatch that writes them all. The stores are proven inside the
    buffer, so no layer."""
    t = "tensor<1x24x40x1xf32>"
    options = Options(severity={"VKS518": Severity.WARNING})
    result = tosa_vkshader.run(model(BUFFER_2D, [t], [t], [5, 1, 1], options),
                               [np.ones((1, 24, 40, 1), np.float32)], options=options)
    [finding] = result.findings
    assert finding.code == "VKS962"
    assert "640 of 960 element(s) were never written" in finding.message
    assert finding.message.endswith("; workgroup_sizes [5, 3, 1] writes every element")
    assert "VKS968" not in [d.code for d in result.notes]


def op(name: str, shader: str, operands: list[str], results: list[str],
       workgroup_sizes: list[int]) -> Op:
    attrs = op_from_shader(shader, language="GLSL").attrs
    return Op(name, attrs | {"workgroup_sizes": workgroup_sizes}, operands, results)


def test_correct_ops_run_without_the_layer_and_with_no_finding():
    """Correct twins of the wrong ops, in one model: each store and load proven inside its
    buffer, so nothing is asked of the layer, and nothing is found."""
    t1000, t1024, t2d = "tensor<1000xf32>", "tensor<1024xf32>", "tensor<1x24x40x1xf32>"
    rng = np.random.default_rng(26)
    cases = [  # the op, its inputs, the numpy answer
        (op("guarded_over", ADD_GUARDED, [t1000] * 2, [t1000], [20, 1, 1]),
         [rng.standard_normal(1000, np.float32) for _ in range(2)], lambda a, b: a + b),
        (op("exact", ADD_UNGUARDED, [t1024] * 2, [t1024], [16, 1, 1]),
         [rng.standard_normal(1024, np.float32) for _ in range(2)], lambda a, b: a + b),
        (op("buffer_2d", BUFFER_2D, [t2d], [t2d], [5, 3, 1]),
         [rng.standard_normal((1, 24, 40, 1), np.float32)], lambda x: x * 2 + 1),
        (op("image_2d", IMAGE_2D, [t2d], [t2d], [5, 3, 1]),
         [rng.standard_normal((1, 24, 40, 1), np.float32)], lambda x: x * 2 + 1),
        (op("tensor_3d", TENSOR_3D, ["tensor<1x8x8x8xf32>"], ["tensor<1x8x8x8xf32>"],
            [2, 2, 2]),
         [rng.standard_normal((1, 8, 8, 8), np.float32)], lambda x: x * 0.5),
        (op("vec4", VEC4, ["tensor<64x4xf32>"], ["tensor<64x4xf32>"], [4, 1, 1]),
         [rng.standard_normal((64, 4), np.float32)], lambda x: x * 4),
        (op("four_each", FOUR_EACH, [t1024], [t1024], [8, 1, 1]),
         [rng.standard_normal(1024, np.float32)], lambda x: x + 1),
        (op("grid_stride", GRID_STRIDE, [t1000], [t1000], [3, 1, 1]),
         [rng.standard_normal(1000, np.float32)], lambda x: -x),
        (op("reduce", REDUCE, ["tensor<4096xf32>"], ["tensor<64xf32>"], [64, 1, 1]),
         [rng.integers(-50, 50, 4096).astype(np.float32)],
         lambda x: x.reshape(64, 64).sum(axis=1)),
    ]
    result = tosa_vkshader.run(model_text([case[0] for case in cases]),
                               [x for case in cases for x in case[1]])
    assert result.diagnostics == []  # no finding, no note: the layer was not used
    for (each, inputs, answer), got in zip(cases, result, strict=True):
        np.testing.assert_allclose(got, answer(*inputs), rtol=1e-6, err_msg=each.name)


def test_a_missing_barrier_fails_the_run_whatever_the_device_showed(capsys, tmp_path):
    """Neither the write check nor the layer sees a race in shared memory (on lavapipe it
    gives the same wrong sums every time): the analysis proves it, the check's warning is
    in the run's report, and the run fails (VKS969), whatever VKS431 is configured as."""
    path = tmp_path / "reduce.mlir"
    path.write_text(model(REDUCE_NO_BARRIER, ["tensor<4096xf32>"], ["tensor<64xf32>"],
                          [64, 1, 1], Options()))
    np.save(tmp_path / "x.npy", np.ones(4096, np.float32))
    code, _, err = cli(capsys, "run", path, "-i", tmp_path / "x.npy")
    assert "warning[VKS431] workgroup-shared `s` is written by OpStore to `s` (line 8)" in err
    assert "VKS968" not in err and "VKS966" not in err
    assert "error[VKS969] custom op 0: its results come from a race on workgroup-shared `s`" \
        in err and "line 8" in err
    assert code == 1
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.tosa-vkshader]\nignore = ["VKS431"]\n')
    code, _, err = cli(capsys, "run", path, "-i", tmp_path / "x.npy", "--config", config)
    assert code == 1 and "VKS431" not in err and "error[VKS969]" in err
