"""`run` proves what it ran: the write check and the Khronos validation layer, on lavapipe.

Each wrong op here has its static codes lowered (as a user would in pyproject.toml), so
that it really runs; what `run` reports is then the device's finding, with a code of its
own that no configuration of the static rule changes. Correct ops give no finding. Where
the run turns the layer on by itself, without `--validate`: test_run_proof.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_runtime_truth import IMAGE_DOUBLE

import tosa_vkshader
from tosa_vkshader import Options, validate
from tosa_vkshader.cli import main
from tosa_vkshader.codegen import CustomOp, op_from_shader
from tosa_vkshader.diagnostics import Severity

from conftest import ROOT

pytestmark = pytest.mark.runtime

HEADER = "#version 460\n"
UNGUARDED = HEADER + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = x[i] + 1.0;
}
"""
ACCUMULATE = HEADER + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) buffer Out { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] += x[i]; }
"""
VEC4_PER_ELEMENT = HEADER + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = vec4(x[i]); }
"""
SCATTER = HEADER + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) readonly buffer Where { int to[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[to[i]] = x[i]; }
"""
SCALE_UNIFORM = HEADER + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) uniform Params { float scale; } params;
layout(set = 0, binding = 2) writeonly buffer Out { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = params.scale * x[i]; }
"""
TENSOR_SHIFTED = HEADER + """#extension GL_ARM_tensors : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform tensorARM<float, 2> x;
layout(set = 0, binding = 1) uniform tensorARM<float, 2> y;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float v;
    tensorReadARM(x, uint[](0, i), v);
    tensorWriteARM(y, uint[](0, i + 64u), v);
}
"""


def lowered(*codes: str) -> Options:
    return Options(severity={code: Severity.WARNING for code in codes})


def model(shader: str, operands: list[str], results: list[str], workgroups: list[int],
          options: Options, **changes: str) -> str:
    op = op_from_shader(shader, language="GLSL", workgroup_sizes=workgroups, options=options,
                        format_of={"params": "VK_FORMAT_R32_SFLOAT"}
                        if "params" in shader else {})
    if changes:
        op = CustomOp.from_attributes(op.attrs | changes, "op", options=options)
    return op.to_mlir(operands, results, options=options)


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def lowering_config(tmp_path, *codes: str):
    config = tmp_path / "pyproject.toml"
    levels = ", ".join(f'{code} = "warning"' for code in codes)
    config.write_text(f"[tool.tosa-vkshader]\nseverity = {{ {levels} }}\n")
    return config


# 16 x 1 workgroups of 8 x 8 on a 128 x 128 result: rows 8-127 never written
UNDER_Y = ("tensor<128x128xf32>", [16, 1, 1])


def test_under_dispatch_in_y_is_an_error_in_every_format(capsys, tmp_path):
    t, workgroups = UNDER_Y
    path = tmp_path / "under.mlir"
    path.write_text(model(IMAGE_DOUBLE, [t], [t], workgroups, lowered("VKS518")))
    x = np.arange(128 * 128, dtype=np.float32).reshape(128, 128)
    np.save(tmp_path / "x.npy", x)
    config = lowering_config(tmp_path, "VKS518")
    argv = ["run", path, "-i", tmp_path / "x.npy", "--config", config]
    code, out, err = cli(capsys, *argv, "-o", tmp_path / "out")
    assert code == 1
    # the static rule, lowered, is a warning; the device's finding is an error all the same
    assert "warning[VKS518]" in err
    assert "under.mlir:3:10: error[VKS962] result_0 `tensor<128x128xf32>`, written by " \
           "custom op 0: 15360 of 16384 element(s) were never written" in err
    assert "first at [8, 0], [8, 1]" in err and "all within [8:128, 0:128]" in err
    assert "; workgroup_sizes [16, 16, 1] writes every element" in err  # (the analysis's)
    got = np.load(tmp_path / "out" / "result_0.npy")
    np.testing.assert_array_equal(got[:8], 2 * x[:8])
    np.testing.assert_array_equal(got[8:], 0)  # as the runner leaves them

    code, out, err = cli(capsys, *argv, "--format", "json")
    assert code == 1
    [report] = json.loads(out)["files"]
    [finding] = [d for d in report["diagnostics"] if d["code"] == "VKS962"]
    assert finding["severity"] == "error" and finding["location"]["line"] == 3
    assert "ran on llvmpipe" in err  # the summary goes to stderr
    code, out, _ = cli(capsys, *argv, "--format", "sarif")
    results = json.loads(out)["runs"][0]["results"]
    assert code == 1 and {r["ruleId"] for r in results} == {"VKS518", "VKS962"}
    code, out, _ = cli(capsys, *argv, "--format", "github")
    assert code == 1 and "::error file=" in out and "VKS962" in out


def test_the_api_returns_the_findings_with_the_arrays():
    t, workgroups = UNDER_Y
    options = lowered("VKS518")
    x = np.ones((128, 128), np.float32)
    result = tosa_vkshader.run(model(IMAGE_DOUBLE, [t], [t], workgroups, options), [x],
                               options=options)
    (y,) = result  # the result is the list of arrays
    assert not result.ok and [d.code for d in result.findings] == ["VKS962"]
    assert isinstance(y, np.ndarray) and y.dtype == np.float32 and y[0, 0] == 2
    unchecked = tosa_vkshader.run(model(IMAGE_DOUBLE, [t], [t], workgroups, options), [x],
                                  options=options, write_check=False)
    assert unchecked.ok and unchecked.findings == []


def test_reading_an_output_before_writing_it():
    """`y[i] += x[i]`: from the runner's zeros it computes x (the result given), from a
    sentinel something else. A warning: it runs as written on the reference runtime, and
    from garbage where the output is not cleared. No element is claimed never written."""
    t = "tensor<64xf32>"
    options = lowered("VKS417")
    x = np.arange(1, 65, dtype=np.float32)
    result = tosa_vkshader.run(model(ACCUMULATE, [t], [t], [1, 1, 1], options), [x],
                               options=options)
    [finding] = result.findings
    assert finding.code == "VKS964" and finding.severity is Severity.WARNING
    assert "64 of 64 element(s) came out differently" in finding.message
    assert result.ok
    np.testing.assert_array_equal(result[0], x)


def test_a_histogram_that_relies_on_the_runners_zeros():
    """Bins nobody counts are never written: from zeros that is their value. The result
    is the runner's, and only the dependence on the output's contents is reported."""
    options = lowered("VKS417")
    shader = (ROOT / "fixtures" / "shaders" / "atomic_histogram.comp").read_text()
    values = (np.arange(1024) * 7 % 200).astype(np.uint32)
    result = tosa_vkshader.run(model(shader, ["tensor<1024xui32>"], ["tensor<256xui32>"],
                                     [8, 1, 1], options), [values], options=options)
    np.testing.assert_array_equal(result[0], np.bincount(values, minlength=256))
    assert [d.code for d in result.findings] == ["VKS964"] and result.ok


def test_writes_past_the_result_into_the_rest_of_its_buffer():
    """A vec4 per element into a result of scalars with a four-component format: the VGF
    makes the buffer four times the result, and the rest of it is a guard zone."""
    t = "tensor<64xf32>"
    # (`check` foresees it, VKS522, lowered: what the device shows is the point here)
    options = lowered("VKS415", "VKS510", "VKS512", "VKS515", "VKS516", "VKS522")
    mlir = model(VEC4_PER_ELEMENT, [t], [t], [1, 1, 1], options,
                 output_0_vkformat="VK_FORMAT_R32G32B32A32_SFLOAT")
    result = tosa_vkshader.run(mlir, [np.arange(64, dtype=np.float32)], options=options)
    [finding] = result.findings
    assert finding.code == "VKS963"
    assert "wrote 768 byte(s) past the end of the result, at bytes 256..1023 of the " \
           "1024-byte output resource" in finding.message


def test_unguarded_over_dispatch_is_found_by_gpu_assisted_validation(capsys, tmp_path):
    """1,024 invocations for 1,000 elements: every element is written (the write check
    has nothing to say), but 24 stores land past the buffer. (`--validate` asks for the
    layer whatever the analysis says; without it, see test_run_proof.py.)"""
    t = "tensor<1000xf32>"
    path = tmp_path / "over.mlir"
    # (the static finding, VKS522, lowered: what the device shows is the point here)
    path.write_text(model(UNGUARDED, [t], [t], [16, 1, 1], lowered("VKS522")))
    np.save(tmp_path / "x.npy", np.zeros(1000, np.float32))
    code, _, err = cli(capsys, "run", path, "-i", tmp_path / "x.npy", "--validate",
                       "--config", lowering_config(tmp_path, "VKS522"))
    assert code == 1
    assert "error[VKS966] custom op 0, shader line " in err
    assert "the validation layer says [VUID-vkCmdDispatch-None-02706] Descriptor index 0 " \
           "access out of bounds. Descriptor size is 4000 and highest byte accessed was " \
           "4003 Global invocation ID (x, y, z) = (1000, 0, 0 )" in err
    assert "of `shader_code`)" in err  # the user's own line, shown
    assert "the Vulkan specification states" in err


def test_a_uniform_block_bound_as_uniform_buffer():
    """Every element is written (zeros: the block reads zeros); the shader declares a
    uniform block, so the run asks the layer's core checks by itself."""
    t, one = "tensor<64xf32>", "tensor<1xf32>"
    options = lowered("VKS251")
    result = tosa_vkshader.run(model(SCALE_UNIFORM, [t, one], [t], [1, 1, 1], options),
                               [np.ones(64, np.float32), np.array([3.0], np.float32)],
                               options=options)
    [note] = [d for d in result.notes if d.code == "VKS968"]
    assert "its shader declares the uniform block `params` (set 0, binding 1), which the " \
           "runtime binds as a storage buffer" in note.message
    assert "the Khronos validation layer (its core checks)" in note.message
    [finding] = result.findings
    assert finding.code == "VKS966"
    assert "[VUID-VkComputePipelineCreateInfo-layout-00703]" in finding.message
    assert "uses type VK_DESCRIPTOR_TYPE_STORAGE_BUFFER but expected " \
           "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER" in finding.message


def test_a_data_dependent_index_past_the_end():
    """`y[to[i]] = x[i]` with one index past the end: that element's store goes out of the
    buffer (GPU-AV) and the element it should have written is never written."""
    t, where = "tensor<64xf32>", "tensor<64xi32>"
    to = np.arange(64, dtype=np.int32)
    to[5] = 64
    result = tosa_vkshader.run(model(SCATTER, [t, where], [t], [1, 1, 1], Options()),
                               [np.arange(64, dtype=np.float32), to])
    codes = sorted(d.code for d in result.findings)
    assert codes == ["VKS962", "VKS966"]
    [unwritten] = [d for d in result.findings if d.code == "VKS962"]
    assert "1 of 64 element(s) were never written" in unwritten.message
    assert "first at [5]" in unwritten.message


def test_an_out_of_bounds_tensor_write(reference_glslc):
    t = "tensor<1x64xf32>"
    options = lowered("VKS518")
    result = tosa_vkshader.run(model(TENSOR_SHIFTED, [t], [t], [1, 1, 1], options),
                               [np.ones((1, 64), np.float32)], options=options)
    [finding] = result.findings
    assert finding.code == "VKS962" and "64 of 64 element(s)" in finding.message


def test_the_validation_layer_missing_is_an_environment_error(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("TOSA_VKSHADER_VALIDATION_LAYER", str(tmp_path / "none.json"))
    folder = tmp_path / "m"
    t = "tensor<64xf32>"
    folder.mkdir()
    (folder / "m.mlir").write_text(model(UNGUARDED, [t], [t], [1, 1, 1], Options()))
    np.save(folder / "x.npy", np.zeros(64, np.float32))
    code, _, err = cli(capsys, "run", folder / "m.mlir", "-i", folder / "x.npy", "--validate")
    assert code == 2
    assert "error[VKS965] --validate: the Khronos validation layer " \
           "(VkLayer_khronos_validation.json) was not found" in err
    assert "help: sudo apt-get install vulkan-validationlayers" in err
    code, _, err = cli(capsys, "run", folder / "m.mlir", "-i", folder / "x.npy",
                       "--validate-checks", "gpu,sync")
    assert code == 2 and "unknown validation check 'gpu'" in err


SCALAR_ITEMS = HEADER + """#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
struct Item { float a; vec3 b; float c; };
layout(scalar, set = 0, binding = 0) readonly buffer In { Item items[]; };
layout(scalar, set = 0, binding = 1) writeonly buffer Out { Item outs[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    outs[i].a = items[i].a * 2.0;
    outs[i].b = items[i].b + 1.0;
    outs[i].c = -items[i].c;
}
"""


def test_scalar_block_layout_is_invalid_on_the_reference_runtimes_device():
    """A 20-byte stride needs the scalarBlockLayout feature, which the scenario runner
    does not enable: lavapipe computes it all the same, but the validation layer rejects
    the module on that device. check says so, naming the runtime (VKS404)."""
    t = "tensor<64x5xf32>"
    options = lowered("VKS404")
    mlir = model(SCALAR_ITEMS, [t], [t], [1, 1, 1], options)
    [found] = validate(mlir, path="model.mlir").errors
    assert found.code == "VKS404" and "stride 20 not satisfying alignment to 16" in \
        found.message
    assert "needs the scalarBlockLayout device feature, which the reference runtime does " \
           "not enable" in found.message and "`vec4` elements" in (found.hint or "")
    x = np.arange(320, dtype=np.float32).reshape(64, 5)
    result = tosa_vkshader.run(mlir, [x], options=options, validate=True)
    assert "[UNASSIGNED-CoreValidation-Shader-InconsistentSpirv] SPIR-V module not valid: " \
           "Structure id" in result.findings[0].message
    assert "stride 20 not satisfying alignment to 16" in result.findings[0].message
    assert not result.ok


EVEN_ONLY = HEADER + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; if (i % 2u == 0u) y[i] = x[i] + 1.0; }
"""
COPY = HEADER + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = x[i]; }
"""


def test_a_result_the_next_op_also_reads_is_write_checked_per_dispatch():
    """`return %1, %0` with %0 also read by the next op: the VGF backs the op's input with
    the result's memory, and two dispatches of one graph resource shared it (the first
    dispatch's results came back holding the second one's sentinel, with no finding:
    exit 0 with NaNs). Each dispatch now gets a graph of its own: the elements the first
    op never writes are found, and the results are those of a run without the check."""
    t = "tensor<64xf32>"
    lines = [next(line for line in op_from_shader(shader, language="GLSL",
                                                  workgroup_sizes=[1, 1, 1]).to_mlir([t], [t])
                  .splitlines() if "tosa.custom" in line).strip()
             for shader in (EVEN_ONLY, COPY)]
    model = (f"module {{\n  func.func @main(%arg0: {t}) -> ({t}, {t}) {{\n    {lines[0]}\n"
             f"    {lines[1].replace('%0 = tosa.custom %arg0', '%1 = tosa.custom %0')}\n"
             f"    return %1, %0 : {t}, {t}\n  }}\n}}\n")
    x = np.arange(64, dtype=np.float32)
    checked = tosa_vkshader.run(model, [x])
    plain = tosa_vkshader.run(model, [x], write_check=False)
    expected = np.where(np.arange(64) % 2 == 0, x + 1, 0).astype(np.float32)
    for got in (*checked, *plain):
        np.testing.assert_array_equal(got, expected)
    found = [(d.code, d.message.split(" `")[0]) for d in checked.findings]
    assert ("VKS962", "result_1") in found and not checked.ok
