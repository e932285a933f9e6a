"""Hints of `run`'s own findings (VKS963-VKS969): what the device showed, each where it
fires on lavapipe, and where following the hint is a change of the op, the finding gone
after it."""

from __future__ import annotations

import numpy as np
import pytest
from test_run_findings import ACCUMULATE, UNGUARDED, VEC4_PER_ELEMENT, lowered, model

import tosa_vkshader
from tosa_vkshader import Options
from tosa_vkshader.cli import main

from hint_cases import hinted, printed

pytestmark = pytest.mark.runtime

T = "tensor<64xf32>"
X = np.arange(64, dtype=np.float32)


def test_writes_past_the_result():
    # VKS522: `check` foresees the writes past the result's data (inside the buffer a
    # vec4 format makes four times the result); lowered to watch the run show them.
    options = lowered("VKS415", "VKS510", "VKS512", "VKS515", "VKS516", "VKS522")
    wide = model(VEC4_PER_ELEMENT, [T], [T], [1, 1, 1], options,
                 output_0_vkformat="VK_FORMAT_R32G32B32A32_SFLOAT")
    hinted(tosa_vkshader.run(wide, [X], options=options).findings, "VKS963",
           hint="make the output's vkformat one texel per element of the result, or guard "
                "the store with the result's size")
    scalar = VEC4_PER_ELEMENT.replace("vec4 y[]", "float y[]").replace("vec4(x[i])", "x[i]")
    fixed = tosa_vkshader.run(model(scalar, [T], [T], [1, 1, 1], Options()), [X])
    assert fixed.findings == []
    np.testing.assert_array_equal(fixed[0], X)


def test_a_result_that_depends_on_what_the_output_held():
    options = lowered("VKS417")
    hinted(tosa_vkshader.run(model(ACCUMULATE, [T], [T], [1, 1, 1], options), [X],
                             options=options).findings, "VKS964",
           hint="write every element of an output before reading it (its initial contents "
                "are undefined), or make the invocations that write it not race")
    written = ACCUMULATE.replace("y[i] += x[i]", "y[i] = x[i]").replace(
        "buffer Out", "writeonly buffer Out")
    assert tosa_vkshader.run(model(written, [T], [T], [1, 1, 1], Options()), [X]).ok


def test_the_validation_layer_is_not_installed(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("TOSA_VKSHADER_VALIDATION_LAYER", str(tmp_path / "none.json"))
    path = tmp_path / "m.mlir"
    path.write_text(model(UNGUARDED, [T], [T], [1, 1, 1], Options()))
    np.save(tmp_path / "x.npy", X)
    assert main(["run", str(path), "-i", str(tmp_path / "x.npy"), "--validate"]) == 2
    printed(capsys.readouterr().err, "VKS965", "sudo apt-get install vulkan-validationlayers")


def test_the_layer_the_run_would_turn_on_is_not_installed(capsys, tmp_path, monkeypatch):
    """Not asked for, so no environment error: the note that the run could not prove the
    op's stores is a warning, with the line that installs the layer."""
    monkeypatch.setenv("TOSA_VKSHADER_VALIDATION_LAYER", str(tmp_path / "none.json"))
    big = "tensor<1000xf32>"
    path = tmp_path / "over.mlir"
    path.write_text(model(UNGUARDED, [big], [big], [16, 1, 1], lowered("VKS522")))
    np.save(tmp_path / "x.npy", np.zeros(1000, np.float32))
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tosa-vkshader]\nseverity = { VKS522 = "warning" }\n')
    assert main(["run", str(path), "-i", str(tmp_path / "x.npy"), "--config",
                 str(tmp_path / "pyproject.toml")]) == 0
    err = capsys.readouterr().err
    assert "warning[VKS968] custom op 0: with workgroup_sizes [16, 1, 1]" in err
    assert "the Khronos validation layer, which would show on the device what it does, " \
           "is not installed" in err
    printed(err, "VKS968", "sudo apt-get install vulkan-validationlayers")


def test_an_error_of_the_validation_layer_names_what_the_specification_states():
    big = "tensor<1000xf32>"
    unguarded = lowered("VKS522")  # what the device shows is the point here
    finding = hinted(tosa_vkshader.run(model(UNGUARDED, [big], [big], [16, 1, 1], unguarded),
                                       [np.zeros(1000, np.float32)], validate=True,
                                       options=unguarded).findings, "VKS966")
    assert finding.hint.startswith("the Vulkan specification states: If the "
                                   "robustBufferAccess feature is not enabled")
    guarded = UNGUARDED.replace("y[i] = x[i] + 1.0;", "if (i < 1000u) y[i] = x[i] + 1.0;")
    assert tosa_vkshader.run(model(guarded, [big], [big], [16, 1, 1], Options()),
                             [np.zeros(1000, np.float32)], validate=True).ok


def test_a_race_on_shared_memory(reference_glslc):
    """VKS969: the missing barrier() proven from the SPIR-V; with it, the run is clean and
    the sums are numpy's."""
    from test_coverage_truth import REDUCE, REDUCE_NO_BARRIER

    x = np.arange(4096, dtype=np.float32) % 7
    shapes = (["tensor<4096xf32>"], ["tensor<64xf32>"], [64, 1, 1])
    hinted(tosa_vkshader.run(model(REDUCE_NO_BARRIER, *shapes, Options()), [x]).findings,
           "VKS969", hint="call barrier() after the writes and before the reads of other "
                          "invocations' elements")
    fixed = tosa_vkshader.run(model(REDUCE, *shapes, Options()), [x])
    assert fixed.findings == []
    np.testing.assert_allclose(fixed[0], x.reshape(64, 64).sum(axis=1))
