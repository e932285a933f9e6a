"""`tosa-vkshader run` and `tosa_vkshader.run`: ops executed for real on lavapipe through
the reference Arm ML SDK toolchain, every result compared with numpy.

Each scenario-runner process costs about a second on lavapipe, so one model often covers
several properties (two inputs and two outputs, push constants and a 2-D dispatch...).
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import numpy as np
import pytest

import tosa_vkshader
from tosa_vkshader import Options
from tosa_vkshader.cli import main
from tosa_vkshader.codegen import CustomOp, op_from_shader
from tosa_vkshader.codegen.emit import mlir_string
from tosa_vkshader.diagnostics import Severity

from conftest import FIXTURES, ROOT

pytestmark = pytest.mark.runtime

SHADERS = FIXTURES / "shaders"
EXAMPLES = ROOT / "examples"
DISPATCH = Options(workgroup_semantics="dispatch")


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def model_of(shader: str | Path | bytes, operands: list[str], results: list[str],
             workgroups: list[int], **kwargs) -> str:
    """A one-op module made the way a user would: `new` then `emit mlir`."""
    op = op_from_shader(shader, workgroup_sizes=workgroups, options=DISPATCH, **kwargs)
    return op.to_mlir(operands, results, options=DISPATCH)


def custom_op(shader: str | Path | bytes, workgroups: list[int], operands: str,
              types: str, name: str) -> str:
    op = op_from_shader(shader, workgroup_sizes=workgroups, options=DISPATCH)
    return (f'tosa.custom {operands} {{domain_name = "com.arm.VulkanCustomShader", '
            f'implementation_attrs = {mlir_string(op.implementation_attrs)}, '
            f'operator_name = "{name}"}} : {types}')


EXAMPLE_RUNS = {  # add_sub_f32 is run by the README's own command below
    # int8 buffers with push constants
    "scale_i8_push": (["q.npy"], "push_constants.bin", ["expected_0.npy"]),
    # a GL_ARM_tensors op on tensors
    "tensor_add": (["lhs.npy", "rhs.npy"], None, ["expected_0.npy"]),
    # tosa.add feeding a custom op
    "add_relu": (["a.npy", "b.npy"], None, ["expected_0.npy"]),
}


@pytest.mark.parametrize("example", sorted(EXAMPLE_RUNS))
def test_examples_run_as_documented_and_match_numpy(capsys, tmp_path, example):
    folder = EXAMPLES / example
    inputs, push, expected = EXAMPLE_RUNS[example]
    argv = ["run", folder / "model.mlir", "-o", tmp_path]
    for name in inputs:
        argv += ["-i", folder / name]
    if push:
        argv += ["--push-constants", folder / push]
    for name in expected:
        argv += ["--expect", folder / name]
    # under the validation layer (core and GPU-assisted checks; synchronization too for
    # the tensor op) and the write check: a correct op gives no finding
    validation = ["--validate-checks", "gpu-assisted,sync"] if example == "tensor_add" \
        else ["--validate"]
    code, out, err = cli(capsys, *argv, *validation)
    assert code == 0, out + err
    assert "ran on llvmpipe" in out
    # The run gives the runner the push constants the VGF lacks: no warning that the
    # shader would read zeros (VKS250 is for `check`, where nothing supplies them).
    assert "VKS250" not in out + err
    for index, name in enumerate(expected):
        got, want = np.load(tmp_path / f"result_{index}.npy"), np.load(folder / name)
        assert got.dtype == want.dtype and got.shape == want.shape
        if got.dtype.kind == "f":
            np.testing.assert_allclose(got, want, rtol=1e-6)
        else:
            np.testing.assert_array_equal(got, want)


def test_the_readme_command_runs_as_printed(capsys, tmp_path, monkeypatch):
    """README "Run an op": float32 buffers, two inputs and two outputs, --expect; the
    command as written (only -o moved into tmp_path) and the output it shows."""
    section = (ROOT / "README.md").read_text().split("## Run an op", 1)[1]
    command = section.split("```bash", 1)[1].split("```", 1)[0]
    command = command.split("tosa-vkshader run", 1)[1].replace("\\\n", " ")
    shown = section.split("```text", 1)[1].split("```", 1)[0].strip().splitlines()
    argv = shlex.split(command)
    argv[argv.index("-o") + 1] = str(tmp_path / "out")
    monkeypatch.chdir(ROOT)
    code, out, err = cli(capsys, "run", *argv)
    assert code == 0, out + err
    printed = out.replace(str(tmp_path / "out"), "out").strip().splitlines()
    assert [line.split(" (")[0] for line in printed] == [line.split(" (")[0] for line in shown]
    folder = EXAMPLES / "add_sub_f32"
    a, b = np.load(folder / "a.npy"), np.load(folder / "b.npy")
    np.testing.assert_allclose(np.load(tmp_path / "out" / "result_0.npy"), a + b, rtol=1e-6)
    np.testing.assert_allclose(np.load(tmp_path / "out" / "result_1.npy"), a - b, rtol=1e-6)


def test_too_few_workgroups_leave_elements_uncomputed(capsys, tmp_path):
    """`workgroup_sizes` is the number of workgroups the runtime dispatches: [1, 1, 1]
    with a local size of 32 computes 32 of 64 int32 elements. --expect reports the first
    element that was not computed, and the warning says so before the run."""
    model = tmp_path / "add_i32.mlir"
    t = "tensor<64xi32>"
    # VKS518 is an error (emit and run refuse such an op); lowered here, as a user would
    # in pyproject.toml, to watch the runtime do it.
    lowered = Options(severity={"VKS518": Severity.WARNING})
    op = op_from_shader(SHADERS / "add_i32.comp", workgroup_sizes=[1, 1, 1], options=lowered)
    model.write_text(op.to_mlir([t, t], [t], options=lowered))
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.tosa-vkshader]\nseverity = { VKS518 = "warning" }\n')
    a = np.arange(64, dtype=np.int32) - 1000
    b = np.arange(64, dtype=np.int32) * 7 + 1
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    np.save(tmp_path / "want.npy", a + b)
    code, out, err = cli(capsys, "run", model, "-i", tmp_path / "a.npy", "-i",
                         tmp_path / "b.npy", "-o", tmp_path / "out", "--expect",
                         tmp_path / "want.npy", "--keep-workdir", "--config", config)
    assert code == 1
    assert "warning[VKS518]" in err and "leave 32 of the 64 elements" in err
    # what the device showed, whatever VKS518 is configured as
    assert "error[VKS962] result_0 `tensor<64xi32>`, written by custom op 0: 32 of 64 " \
           "element(s) were never written" in err and "first at [32], [33]" in err
    assert "error[VKS960] result_0: 32 of 64 element(s) differ exactly" in err
    assert "first at index [32]" in err
    # the difference is said where the result is written: at the op, in the model's file
    [mismatch] = [line for line in err.splitlines() if "error[VKS960]" in line]
    assert mismatch.startswith(f"{model}:3:"), mismatch
    got = np.load(tmp_path / "out" / "result_0.npy")
    np.testing.assert_array_equal(got[:32], (a + b)[:32])
    assert not np.any(got[32:] == (a + b)[32:])
    kept = Path(err.split("work directory kept: ", 1)[1].split()[0])
    assert {"model.vgf", "scenario.json", "model.mlir"} <= {p.name for p in kept.iterdir()}
    shutil.rmtree(kept)  # kept for the user; the test cleans up after itself


def test_float16_op_json_with_operand_types(capsys, tmp_path):
    """An op JSON file plus --operands/--results runs like `emit mlir` would build it."""
    op = op_from_shader(SHADERS / "fp16_buffer.comp", name="half", workgroup_sizes=[2, 1, 1],
                        options=DISPATCH)
    (tmp_path / "half.json").write_text(json.dumps(op.to_op_object()))
    x = np.linspace(-4, 4, 128).astype(np.float16)
    np.save(tmp_path / "x.npy", x)
    code, out, err = cli(capsys, "run", tmp_path / "half.json", "--operands", "tensor<128xf16>",
                         "--results", "tensor<128xf16>", "-i", tmp_path / "x.npy", "-o",
                         tmp_path)
    assert code == 0, out + err
    got = np.load(tmp_path / "result_0.npy")
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, x * np.float16(0.5))


def test_inputs_in_any_layout_numpy_writes(capsys, tmp_path):
    """`run` reads plain .npy files itself; a Fortran-ordered array and a format 2.0 file
    are handed to numpy, and the op sees the same elements either way."""
    t = "tensor<8x16xf32>"
    model = tmp_path / "multiply.mlir"
    model.write_text(model_of(SHADERS / "multi_set.comp", [t, t], [t], [2, 1, 1]))
    a = np.asfortranarray(np.arange(128, dtype=np.float32).reshape(8, 16))
    b = np.linspace(-2, 2, 128, dtype=np.float32).reshape(8, 16)
    np.save(tmp_path / "a.npy", a)
    with open(tmp_path / "b.npy", "wb") as file:
        np.lib.format.write_array(file, b, version=(2, 0))
    code, out, err = cli(capsys, "run", model, "-i", tmp_path / "a.npy", "-i",
                         tmp_path / "b.npy", "-o", tmp_path / "out")
    assert code == 0, out + err
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "result_0.npy"), a * b)


def test_storage_images_non_square():
    """r32f storage images in and out (DDS files); height 8 and width 16 must not swap."""
    t = "tensor<1x8x16x1xf32>"
    model = model_of(SHADERS / "storage_image_r32f.comp", [t], [t], [2, 1, 1])
    x = np.arange(128, dtype=np.float32).reshape(1, 8, 16, 1)
    ran = tosa_vkshader.run(model, [x], validate=True)
    np.testing.assert_array_equal(ran[0], x * 0.5)
    assert ran.findings == []  # the write check and the layer on images too


def test_push_constants_with_a_two_dimensional_dispatch():
    """scale and bias come from the push constants; [64, 2, 1] workgroups of 16 x 8 cover
    a 16 x 1024 buffer only if y is dispatched too (two workgroups of eight rows)."""
    t = "tensor<16x1024xf32>"
    model = model_of(SHADERS / "scale_bias_push.comp", [t], [t], [64, 2, 1])
    x = np.linspace(-1, 1, 16384, dtype=np.float32).reshape(16, 1024)
    push = np.array([2.0, 0.5], dtype="<f4").tobytes()
    (got,) = tosa_vkshader.run(model, [x], push_constants=push)
    np.testing.assert_allclose(got, x * 2 + 0.5, rtol=1e-6)


def test_descriptor_sets_beyond_zero():
    t = "tensor<128xf32>"
    model = model_of(SHADERS / "multi_set.comp", [t, t], [t], [2, 1, 1])
    a = np.arange(128, dtype=np.float32)
    b = np.full(128, -1.5, dtype=np.float32)
    (got,) = tosa_vkshader.run(model, [a, b])
    np.testing.assert_array_equal(got, a * b)


def test_two_tensor_ops_one_with_push_constants(tmp_path):
    """An int8 tensor copy and a float32 tensor add with (count, scale) push constants, in
    one model: the push constants reach only the op that declares them, and the results
    come back in the function's order."""
    q_t, f_t = "tensor<1x16x16x1xi8>", "tensor<1x64xf32>"
    copy = custom_op(SHADERS / "tensor_copy_int8.spv", [2, 2, 1], "%q",
                     f"({q_t}) -> {q_t}", "copy")
    add = custom_op(SHADERS / "tensor_add_f32.spv", [1, 1, 1], "%a, %b",
                    f"({f_t}, {f_t}) -> {f_t}", "add")
    model = tmp_path / "two_ops.mlir"
    model.write_text("\n".join([
        "module {",
        f"  func.func @main(%q: {q_t}, %a: {f_t}, %b: {f_t}) -> ({f_t}, {q_t}) {{",
        f"    %0 = {copy}",
        f"    %1 = {add}",
        f"    return %1, %0 : {f_t}, {q_t}",
        "  }",
        "}",
    ]))
    q = (np.arange(256) % 251 - 125).astype(np.int8).reshape(1, 16, 16, 1)
    a = np.arange(64, dtype=np.float32).reshape(1, 64)
    b = np.full((1, 64), 2.0, dtype=np.float32)
    push = np.array([64], "<u4").tobytes() + np.array([3.0], "<f4").tobytes()
    ran = tosa_vkshader.run(model, [q, a, b], push_constants=push, validate=True)
    assert ran.findings == []  # two ops: the layer's messages would name theirs
    total, copied = ran
    np.testing.assert_array_equal(copied, q)
    np.testing.assert_array_equal(total, (a + b) * 3)


def test_hlsl_is_compiled_by_us_and_said_so(capsys, tmp_path):
    """The runtime cannot compile HLSL: `run` embeds the SPIR-V it compiles, with a note.
    (Debian's glslang compiles HLSL for Vulkan 1.1, hence the target-env.)"""
    hlsl = Options(workgroup_semantics="dispatch", target_env="vulkan1.1")
    op = op_from_shader(SHADERS / "hlsl_copy.hlsl", name="twice", workgroup_sizes=[1, 1, 1],
                        embed="source", options=hlsl)
    assert op.attrs["shader_language"] == "HLSL"
    model = tmp_path / "hlsl.mlir"
    model.write_text(op.to_mlir(["tensor<64xf32>"], ["tensor<64xf32>"], options=hlsl))
    (tmp_path / "pyproject.toml").write_text('[tool.tosa-vkshader]\ntarget-env = "vulkan1.1"\n')
    x = np.arange(64, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    code, out, err = cli(capsys, "run", model, "-i", tmp_path / "x.npy", "-o", tmp_path,
                         "--config", tmp_path / "pyproject.toml")
    assert code == 0, out + err
    assert "info[VKS958]" in err and "embedded as SPIR-V" in err
    np.testing.assert_array_equal(np.load(tmp_path / "result_0.npy"), x * 2)
    assert "HLSL" in model.read_text()  # the user's file is not touched


def test_shader_that_the_runtime_cannot_compile(capsys, tmp_path):
    """A macro defined only in our configuration: our compile passes, the runtime's
    glslang does not know TILE. Checked first, the run stops there (VKS310, which
    tests/test_thirdparty_macros.py shows the runner failing on), exit 1; with VKS310
    lowered the runner's own error is shown."""
    source = (SHADERS / "copy_f32.comp").read_text().replace(
        "local_size_x = 64", "local_size_x = TILE")
    options = Options(workgroup_semantics="dispatch", macros=(("TILE", "64"),))
    op = op_from_shader(source, language="GLSL", embed="source", name="tile",
                        workgroup_sizes=[1, 1, 1], options=options)
    # as a user's exporter writes it: the source as it is, the macro only configured
    attrs = {**op.attrs, "shader_code": source}
    plain = CustomOp.from_attributes(attrs, "tile", options=Options(ignore=("VKS3",)))
    model = tmp_path / "tile.mlir"
    model.write_text(plain.to_mlir(["tensor<64xf32>"], ["tensor<64xf32>"],
                                   options=Options(ignore=("VKS3",))))
    np.save(tmp_path / "x.npy", np.zeros(64, np.float32))
    for config, code_seen in (('macros = { TILE = "64" }', "error[VKS310]"),
                              ('macros = { TILE = "64" }\nignore = ["VKS310"]',
                               "error[VKS955] scenario-runner exited with")):
        (tmp_path / "pyproject.toml").write_text(f"[tool.tosa-vkshader]\n{config}\n")
        code, out, err = cli(capsys, "run", model, "-i", tmp_path / "x.npy", "-o",
                             tmp_path / "o", "--config", tmp_path / "pyproject.toml")
        assert code == 1
        assert code_seen in err and "TILE" in err
        assert not (tmp_path / "o" / "result_0.npy").exists()
    # the compiler's lines as lines (the runner escapes them as \x0a)
    assert "\\x0a" not in err
    assert "\n  ERROR: 0:3: '' : constant expression required\n" in err


def test_list_devices_and_pick_one(capsys, tmp_path):
    code, out, _ = cli(capsys, "run", "--list-devices")
    assert code == 0 and "llvmpipe" in out and "lvp_icd" in out
    folder = EXAMPLES / "add_relu"
    code, out, err = cli(capsys, "run", folder / "model.mlir", "-i", folder / "a.npy", "-i",
                         folder / "b.npy", "-o", tmp_path, "--device", "lavapipe")
    assert code == 0, err
    assert "ran on llvmpipe" in out
    code, _, err = cli(capsys, "run", folder / "model.mlir", "-i", folder / "a.npy", "-i",
                       folder / "b.npy", "-o", tmp_path, "--device", "mali-g720")
    assert code == 2
    assert "error[VKS952] no Vulkan device matches --device `mali-g720`" in err
    assert "llvmpipe" in err


SAMPLED = """#version 460
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) writeonly buffer Out { vec4 texels[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    texels[p.y * 8 + p.x] = texelFetch(tex, p, 0);
}
"""


def test_combined_image_sampler_into_a_multi_component_buffer(tmp_path):
    """An rgba32f sampled image (4 high, 8 wide) copied into a vec4 buffer whose result is
    tensor<32x4xf32>: the VGF sizes that buffer elements x 16 bytes, four times the data,
    and the result is the first 512 bytes."""
    shader = tmp_path / "sampled.comp"
    shader.write_text(SAMPLED)
    model = model_of(shader, ["tensor<1x4x8x4xf32>"], ["tensor<32x4xf32>"], [2, 1, 1],
                     format_of={"tex": "VK_FORMAT_R32G32B32A32_SFLOAT"})
    image = np.arange(128, dtype=np.float32).reshape(1, 4, 8, 4)
    (texels,) = tosa_vkshader.run(model, [image])
    np.testing.assert_array_equal(texels, image.reshape(32, 4))


RGB_DOUBLE = """#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float p[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float q[]; };
void main() { uint i = gl_GlobalInvocationID.x; q[i] = p[i] * 2.0; }
"""


def test_a_three_component_buffer_format_is_sized_as_the_runner_pads_it():
    """The runner allocates a three-component format as four components a texel (16
    bytes for R32G32B32_SFLOAT over tensor<64x3xf32>) and refuses a buffer sized with
    three (measured: "expects buffer size 3072"); the data are the first bytes."""
    t, rgb_format = "tensor<64x3xf32>", "VK_FORMAT_R32G32B32_SFLOAT"
    op = op_from_shader(RGB_DOUBLE, language="GLSL", workgroup_sizes=[3, 1, 1],
                        options=DISPATCH)
    rgb = CustomOp.from_attributes(op.attrs | {"input_0_vkformat": rgb_format,
                                               "output_0_vkformat": rgb_format}, "rgb",
                                   options=DISPATCH)
    x = np.arange(192, dtype=np.float32).reshape(64, 3)
    (doubled,) = tosa_vkshader.run(rgb.to_mlir([t], [t], options=DISPATCH), [x])
    np.testing.assert_array_equal(doubled, 2 * x)


def test_push_constants_without_the_attribute_run_with_a_warning(capsys, tmp_path):
    """The converter drops `push_constants`, so a model without the attribute runs the same:
    `run` warns (VKS423) instead of refusing, and the bytes given are what the shader
    reads."""
    example = EXAMPLES / "scale_i8_push"
    text = (example / "model.mlir").read_text()
    model = tmp_path / "no_attribute.mlir"
    model.write_text(text.replace(', \\"push_constants\\": \\"multiplier: 4, offset: 4\\"', ""))
    assert "multiplier: 4" not in model.read_text()
    code, out, err = cli(capsys, "run", model, "-i", example / "q.npy", "--push-constants",
                         example / "push_constants.bin", "-o", tmp_path, "--expect",
                         example / "expected_0.npy")
    assert code == 0, out + err
    assert "warning[VKS423]" in err


def test_a_prepared_model_is_checked_and_converted_once_and_run_many_times():
    """What property tests build on: one VGF, one check, many inputs; several sets of
    inputs in one scenario-runner process (each with its own results and findings)."""
    rng = np.random.default_rng(3)
    cases = [[rng.standard_normal((1, 256)).astype(np.float32) for _ in range(2)]
             for _ in range(3)]
    with tosa_vkshader.prepare(EXAMPLES / "add_sub_f32" / "model.mlir") as prepared:
        first = prepared.run(cases[0])
        vgf = prepared.workdir / "model.vgf"
        converted = vgf.stat().st_mtime_ns
        many = prepared.run_many(cases)
        assert vgf.stat().st_mtime_ns == converted  # not converted again
        assert len(list(prepared.workdir.glob("model*.vgf"))) == 1
        for (a, b), result in zip(cases, [first, *many[1:]], strict=True):
            total, difference = result
            np.testing.assert_allclose(total, a + b, rtol=1e-6)
            np.testing.assert_allclose(difference, a - b, rtol=1e-6)
            assert result.findings == [] and result.device.startswith("llvmpipe")
        np.testing.assert_array_equal(many[0][0], first[0])
    assert not prepared.workdir.exists()


def test_a_prepared_model_says_which_input_of_which_case_it_cannot_take():
    """A big-endian array (what np.load gives for a file written on such a machine) is
    refused with the conversion that keeps its values; of many cases, a wrong one is
    named by its number; the prepared model keeps working after a refused call, and
    refuses use once closed."""
    a = np.arange(256, dtype="<f4").reshape(1, 256)
    b = np.ones((1, 256), dtype="<f4")
    with tosa_vkshader.prepare(EXAMPLES / "add_sub_f32" / "model.mlir") as prepared:
        with pytest.raises(tosa_vkshader.RunError) as caught:
            prepared.run([a.astype(">f4"), b])
        [problem] = caught.value.diagnostics
        assert problem.hint == 'x.astype("<f4") (the same values, in the little-endian ' \
                               "order the device reads)"
        total, difference = prepared.run([a, b])
        np.testing.assert_array_equal(total, a + 1)
        np.testing.assert_array_equal(difference, a - 1)
        cases = [[a, b]] * 3
        cases[1] = [a, b[:, :128]]
        with pytest.raises(tosa_vkshader.RunError) as caught:
            prepared.run_many(cases)
        [problem] = caught.value.diagnostics
        assert problem.code == "VKS953" and caught.value.exit_code == 2
        assert problem.message.startswith("case 1: input 1 for argument %arg1: expected "
                                          "tensor<1x256xf32>")
        with pytest.raises(ValueError, match="timeout must be a positive number"):
            prepared.run([a, b], timeout=0)
        assert prepared.run([b, b]).ok
    with pytest.raises(ValueError, match="closed"):
        prepared.run([a, b])


def test_an_argument_read_by_a_custom_op_and_a_tosa_op(capsys, tmp_path):
    """A TOSA op after the custom op that also reads the model's argument: as a tensor
    operand of both it runs; a buffer operand of the custom op is a second resource of the
    converter's that the runner cannot bind, named before the runner's own words."""
    t = "tensor<1x64xf32>"
    example = EXAMPLES / "tensor_add"
    after = f"%1 = tosa.add %0, %arg0 : ({t}, {t}) -> {t}\n    return %1 : {t}"
    tensors = tmp_path / "tensors.mlir"
    tensors.write_text((example / "model.mlir").read_text().replace(f"return %0 : {t}", after))
    lhs, rhs = np.load(example / "lhs.npy"), np.load(example / "rhs.npy")
    np.save(tmp_path / "expected.npy", lhs + rhs + lhs)
    code, _, err = cli(capsys, "run", tensors, "-i", example / "lhs.npy", "-i",
                       example / "rhs.npy", "--expect", tmp_path / "expected.npy")
    assert code == 0, err
    t = "tensor<1x256xf32>"
    buffers = tmp_path / "buffers.mlir"
    buffers.write_text((EXAMPLES / "add_sub_f32" / "model.mlir").read_text().replace(
        f"return %0#0, %0#1 : {t}, {t}",
        f"%1 = tosa.add %0#0, %arg0 : ({t}, {t}) -> {t}\n    return %1, %0#1 : {t}, {t}"))
    code, _, err = cli(capsys, "run", buffers, "-i", EXAMPLES / "add_sub_f32" / "a.npy", "-i",
                       EXAMPLES / "add_sub_f32" / "b.npy")
    assert code == 1
    assert "error[VKS959] argument 0 (a VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) is also read as " \
           "a VK_DESCRIPTOR_TYPE_TENSOR_ARM by another op" in err, err
    assert "help: declare the custom op's operand a tensor" in err
