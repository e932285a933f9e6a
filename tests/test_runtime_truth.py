"""`check` judges an op the way the reference converter and runtime treat it.

Each rule is demonstrated on the real toolchain (Arm ML SDK 0.11.0 wheels, lavapipe):
through `tosa-vkshader run` (tosa_vkshader.run), or, where `run` deliberately helps (it
supplies push constants, embeds HLSL), by converting the op and reading the VGF back or
running the scenario runner directly (tests/toolchain.py). Results are compared with numpy.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from toolchain import RunnerRefused, convert, run_raw

import tosa_vkshader
from tosa_vkshader import Options, validate
from tosa_vkshader.cli import main
from tosa_vkshader.codegen import CustomOp, op_from_shader
from tosa_vkshader.diagnostics import Severity

from conftest import FIXTURES

pytestmark = pytest.mark.runtime

HEADER = "#version 460\n"
ADD_ONE = HEADER + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = x[i] + 1.0; }
"""
# An 8 x 8 tile per workgroup over a 128-wide image, one element per invocation.
IMAGE_DOUBLE = HEADER + """layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.y * 128u + gl_GlobalInvocationID.x;
    y[i] = 2.0 * x[i];
}
"""
SCALE_PUSH = HEADER + """layout(local_size_x = 64) in;
layout(push_constant) uniform P { float scale; } p;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = p.scale * x[i]; }
"""
SCALE_UNIFORM = HEADER + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) uniform Params { float scale; } params;
layout(set = 0, binding = 2) writeonly buffer Out { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = params.scale * x[i]; }
"""
SCALE_STORAGE = SCALE_UNIFORM.replace("uniform Params", "readonly buffer Params")
TEXEL_COPY = HEADER + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1, r32f) uniform writeonly imageBuffer y;
void main() { int i = int(gl_GlobalInvocationID.x); imageStore(y, i, vec4(x[i])); }
"""
HLSL_ADD_ONE = """RWStructuredBuffer<float> y : register(u1);
StructuredBuffer<float> x : register(t0);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { y[id.x] = x[id.x] + 1.0; }
"""


def lowered(*codes: str) -> Options:
    """Options that turn these errors into warnings, as a user would in pyproject.toml,
    to watch what the runtime does with such an op."""
    return Options(severity={code: Severity.WARNING for code in codes})


def mlir_of(shader: str, operands: list[str], results: list[str], *,
            workgroup_sizes: list[int] | None = None, options: Options | None = None,
            **kwargs) -> str:
    op = op_from_shader(shader, language=kwargs.pop("language", "GLSL"),
                        workgroup_sizes=workgroup_sizes, options=options, **kwargs)
    return op.to_mlir(operands, results, options=options)


def codes(text: str, options: Options | None = None, path: str = "model.mlir") -> list[str]:
    return sorted({d.code for d in validate(text, options, path=path).diagnostics})


def errors(text: str, options: Options | None = None) -> list[str]:
    return sorted({d.code for d in validate(text, options, path="model.mlir").errors})


# -- workgroup_sizes: the runtime's reading is the default ------------------------------

def test_an_op_that_runs_right_gets_no_error_by_default():
    """[32, 1, 1] workgroups of 64 cover 2,048 elements: converts and computes right, so
    the default reading has nothing against it; the spec's literal reading (local-size)
    still calls it a mismatch (VKS420), as configured."""
    t = "tensor<2048xf32>"
    mlir = mlir_of(ADD_ONE, [t], [t], workgroup_sizes=[32, 1, 1])
    x = np.linspace(-3, 3, 2048, dtype=np.float32)
    ran = tosa_vkshader.run(mlir, [x], validate=True)
    np.testing.assert_array_equal(ran[0], x + 1)
    assert ran.findings == []  # every element written, nothing the layer objects to
    assert errors(mlir) == []
    assert "VKS420" in errors(mlir, Options(workgroup_semantics="local-size"))


def test_the_local_size_as_workgroup_count_gets_a_note_naming_both_readings():
    attrs = op_from_shader(ADD_ONE, language="GLSL").attrs  # no shapes: the local size
    [note] = validate(attrs).diagnostics
    assert (note.code, note.severity.label) == ("VKS430", "info")
    assert "[64, 1, 1]" in note.message and "4096 invocations" in note.message
    assert "spec" in note.message and "runtime" in note.message


def test_dispatch_coverage_is_an_error_naming_both_numbers_and_the_fix(tmp_path):
    """[8, 8, 1] (the local size) on a 128 x 128 result: the runtime computes the
    top-left 64 x 64 and leaves 12,288 elements as they were."""
    t = "tensor<1x128x128x1xf32>"
    x = np.arange(128 * 128, dtype=np.float32).reshape(1, 128, 128, 1)
    short = mlir_of(IMAGE_DOUBLE, [t], [t], workgroup_sizes=[8, 8, 1],
                    options=lowered("VKS518"))
    [d] = [d for d in validate(short, path="model.mlir").diagnostics if d.code == "VKS518"]
    assert d.severity is Severity.ERROR and d.pointer == "/workgroup_sizes"
    assert "4096 invocations" in d.message and "16384 elements" in d.message
    assert "[16, 16, 1]" in d.hint

    ran = tosa_vkshader.run(short, [x], options=lowered("VKS518"))
    [y] = ran
    computed = np.zeros((128, 128), dtype=bool)
    computed[:64, :64] = True
    np.testing.assert_array_equal(y[0, :, :, 0][computed], 2 * x[0, :, :, 0][computed])
    assert np.count_nonzero(y[0, :, :, 0][~computed] == 2 * x[0, :, :, 0][~computed]) <= 1
    [unwritten] = ran.findings  # the device agrees: the write check's own finding
    assert unwritten.code == "VKS962" and "12288 of 16384 element(s)" in unwritten.message

    fixed = mlir_of(IMAGE_DOUBLE, [t], [t], workgroup_sizes=[16, 16, 1])
    assert errors(fixed) == []
    ran = tosa_vkshader.run(fixed, [x], validate=True)
    np.testing.assert_array_equal(ran[0], 2 * x)
    assert ran.findings == []


def test_the_dispatch_the_converter_writes_is_the_attribute(tmp_path):
    t = "tensor<1x128x128x1xf32>"
    dump = convert(mlir_of(IMAGE_DOUBLE, [t], [t], workgroup_sizes=[16, 16, 1]), tmp_path)
    [segment] = dump["model_sequence"]["segments"]
    assert segment["dispatch_shape"] == [16, 16, 1]


# -- push constants ---------------------------------------------------------------------

def test_push_constants_are_dropped_by_the_converter_and_read_zeros(tmp_path):
    t = "tensor<64xf32>"
    mlir = mlir_of(SCALE_PUSH, [t], [t], workgroup_sizes=[1, 1, 1])
    [d] = [d for d in validate(mlir, path="model.mlir").diagnostics if d.code == "VKS250"]
    # a note: declaring them is all the attributes can do, and what runs them must supply
    assert d.severity is Severity.INFO and d.pointer == "/push_constants"
    assert "zeros" in d.message and "tosa-vkshader run" in d.message

    dump = convert(mlir, tmp_path / "vgf")
    assert dump["model_sequence"]["segments"][0]["push_constant_ranges"] == []
    x = np.arange(1, 65, dtype=np.float32)
    [y] = run_raw(mlir, [x], tmp_path / "raw")  # a runner nobody told about them
    np.testing.assert_array_equal(y, np.zeros(64, dtype=np.float32))
    ran = tosa_vkshader.run(mlir, [x], push_constants=np.float32(2.5).tobytes(),
                            validate=True)
    np.testing.assert_array_equal(ran[0], 2.5 * x)
    assert ran.findings == []


# -- descriptor types ---------------------------------------------------------------------

def test_a_uniform_buffer_reads_zeros_on_the_runtime():
    t, one = "tensor<64xf32>", "tensor<1xf32>"
    x = np.arange(64, dtype=np.float32)
    scale = np.array([3.0], dtype=np.float32)
    uniform = mlir_of(SCALE_UNIFORM, [t, one], [t], workgroup_sizes=[1, 1, 1],
                      options=lowered("VKS251"), format_of={"params": "VK_FORMAT_R32_SFLOAT"})
    [d] = [d for d in validate(uniform, path="model.mlir").errors]
    assert d.code == "VKS251" and d.pointer == "/input_1_vkdescriptortype"
    assert "storage buffer" in d.message and "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER" in d.hint
    [y] = tosa_vkshader.run(uniform, [x, scale], options=lowered("VKS251"))
    np.testing.assert_array_equal(y, np.zeros(64, dtype=np.float32))

    storage = mlir_of(SCALE_STORAGE, [t, one], [t], workgroup_sizes=[1, 1, 1])
    assert errors(storage) == []
    ran = tosa_vkshader.run(storage, [x, scale], validate=True)
    np.testing.assert_array_equal(ran[0], 3 * x)
    assert ran.findings == []


def test_a_storage_texel_buffer_converts_but_does_not_run(tmp_path):
    t = "tensor<64xf32>"
    mlir = mlir_of(TEXEL_COPY, [t], [t], workgroup_sizes=[1, 1, 1], options=lowered("VKS252"))
    [d] = validate(mlir, path="model.mlir").errors
    assert d.code == "VKS252" and d.pointer == "/output_0_vkdescriptortype"
    assert "STORAGE_TEXEL_BUFFER" in d.message and "STORAGE_BUFFER" in d.hint
    dump = convert(mlir, tmp_path)  # the converter takes it...
    assert "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER" in {
        r["vk_descriptor_type"] for r in dump["resources"]}
    with pytest.raises(RunnerRefused):  # ...the runner does not
        run_raw(mlir, [np.zeros(64, dtype=np.float32)], tmp_path)


SAMPLED_COPY = HEADER + """#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D x;
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() { ivec2 p = ivec2(gl_GlobalInvocationID.xy); y[p.y * 8 + p.x] = texelFetch(x, p, 0).r; }
"""

# A uniform texel buffer: GLSL `samplerBuffer`, HLSL `Buffer<float>`.
UNIFORM_TEXEL_COPY = HEADER + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer x;
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() { int i = int(gl_GlobalInvocationID.x); y[i] = texelFetch(x, i).r; }
"""


@pytest.mark.parametrize(("shader", "operand", "format_of", "descriptor"), [
    (SAMPLED_COPY, "tensor<1x8x8x1xf32>", {"x": "VK_FORMAT_R32_SFLOAT"},
     "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE"),
    (UNIFORM_TEXEL_COPY, "tensor<64xf32>", {"x": "VK_FORMAT_R32_SFLOAT"},
     "VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER"),
    (ADD_ONE, "tensor<64xf32>", None, "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC"),
])
def test_descriptor_types_the_runner_refuses(tmp_path, shader, operand, format_of, descriptor):
    """Decided once from what the runner does: it binds tensors, buffers and images only.
    `check` says so (VKS252), and `run` refuses the VGF's resource in the same words
    (VKS959) before starting the runner."""
    options = lowered("VKS252", "VKS414")
    attrs = op_from_shader(shader, language="GLSL", workgroup_sizes=[1, 1, 1],
                           format_of=format_of or {}, options=options).attrs \
        | {"input_0_vkdescriptortype": descriptor}
    [d] = [d for d in validate(attrs).diagnostics if d.code == "VKS252"]
    assert d.severity is Severity.ERROR and descriptor in d.message
    assert "binds only tensors, storage and uniform buffers" in d.message
    mlir = CustomOp.from_attributes(attrs, "copy", options=options).to_mlir(
        [operand], ["tensor<64xf32>"], options=options)
    with pytest.raises(RunnerRefused, match="Found descriptor type"):  # the runner's own
        run_raw(mlir, [np.zeros(64, dtype=np.float32)], tmp_path)
    with pytest.raises(tosa_vkshader.RunError) as caught:
        tosa_vkshader.run(mlir, [np.zeros(operand_shape(operand), dtype=np.float32)],
                          options=options)
    [refused] = caught.value.diagnostics
    assert refused.code == "VKS959" and descriptor in refused.message
    assert "binds only tensors, storage and uniform buffers" in refused.message


def operand_shape(tensor: str) -> tuple[int, ...]:
    return tuple(int(d) for d in tensor.removeprefix("tensor<").split("x")[:-1])


def test_types_the_runtime_has_not_been_shown_to_run_are_warnings(valid_attrs):
    descriptor = "VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK"
    report = validate(valid_attrs | {"input_0_vkdescriptortype": descriptor})
    [d] = [d for d in report.diagnostics if d.code == "VKS253"]
    assert d.severity is Severity.WARNING and descriptor in d.message


def test_aliases_are_left_to_the_name_rules(valid_attrs):
    attrs = valid_attrs | {
        "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK_EXT"}
    assert "VKS253" not in {d.code for d in validate(attrs).diagnostics}


# -- HLSL ---------------------------------------------------------------------------------

def test_hlsl_converts_but_the_runtime_cannot_compile_it(tmp_path):
    t = "tensor<64xf32>"
    options = Options(target_env="vulkan1.1")
    mlir = mlir_of(HLSL_ADD_ONE, [t], [t], language="HLSL", workgroup_sizes=[1, 1, 1],
                   options=options, embed="source")
    [d] = [d for d in validate(mlir, options, path="model.mlir").diagnostics
           if d.code == "VKS254"]
    assert d.severity is Severity.WARNING and d.pointer == "/shader_language"
    assert "fix" in d.hint and "--embed spirv" in d.hint
    with pytest.raises(RunnerRefused, match="HLSL shaders are not supported"):
        run_raw(mlir, [np.zeros(64, dtype=np.float32)], tmp_path)


# -- results returned in another order -------------------------------------------------

def test_a_multi_result_op_returned_out_of_order_comes_back_swapped():
    model = FIXTURES / "models" / "returned-swapped.mlir"
    [d] = tosa_vkshader.check_file(model).errors
    assert d.code == "VKS520" and "result 1, result 0" in d.message
    assert (d.location.line, d.location.column) == (5, 12)

    x = np.arange(64, dtype=np.float32)
    first, second = tosa_vkshader.run(model, [x], options=lowered("VKS520"))
    # The model says: return (x * 2, x + 1). The runtime hands back the op's order.
    np.testing.assert_array_equal(first, x + 1)
    np.testing.assert_array_equal(second, x * 2)

    in_order = model.read_text().replace("return %0#1, %0#0", "return %0#0, %0#1")
    assert errors(in_order) == []
    ran = tosa_vkshader.run(in_order, [x], validate=True)
    assert ran.findings == []
    first, second = ran
    np.testing.assert_array_equal(first, x + 1)
    np.testing.assert_array_equal(second, x * 2)


# -- new and emit write ops that run right ----------------------------------------------

def test_new_computes_the_workgroups_from_the_results_and_emit_runs_right(tmp_path, capsys):
    shader = tmp_path / "add_one.comp"
    shader.write_text(ADD_ONE)
    t = "tensor<1x256x384xf32>"  # 98,304 elements: the user report's shape
    op_json = tmp_path / "op.json"
    assert main(["new", str(shader), "--operands", t, "--results", t, "--name", "add_one",
                 "-o", str(op_json)]) == 0
    err = capsys.readouterr().err
    assert "info[VKS521]" in err and '"dispatch"' in err and "[1536, 1, 1]" in err
    written = json.loads(op_json.read_text())
    assert written["implementation_attrs"]["workgroup_sizes"] == [1536, 1, 1]
    assert written["inputs"] == [t] and written["outputs"] == [t]

    mlir = tmp_path / "op.mlir"
    assert main(["emit", "mlir", str(op_json), "-o", str(mlir)]) == 0
    x = np.random.default_rng(7).standard_normal((1, 256, 384)).astype(np.float32)
    ran = tosa_vkshader.run(mlir, [x], validate=True)
    np.testing.assert_array_equal(ran[0], x + 1)
    assert ran.findings == []


def test_new_says_which_reading_it_used_under_local_size(tmp_path):
    op = op_from_shader(ADD_ONE, language="GLSL", results=["tensor<4096xf32>"],
                        options=Options(workgroup_semantics="local-size"))
    assert op.attrs["workgroup_sizes"] == [64, 1, 1]
    [note] = [d for d in op.notes if d.code == "VKS521"]
    assert '"local-size"' in note.message and "4096 invocations" in note.message


def test_emit_refuses_a_dispatch_that_cannot_cover_its_results(tmp_path, capsys):
    shader = tmp_path / "add_one.comp"
    shader.write_text(ADD_ONE)
    attrs = tmp_path / "op.json"
    assert main(["new", str(shader), "-o", str(attrs)]) == 0  # no shapes: the local size
    out = tmp_path / "op.mlir"
    t = "tensor<1x256x384xf32>"
    assert main(["emit", "mlir", str(attrs), "--operands", t, "--results", t,
                 "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "error[VKS518]" in err and "4096 invocations" in err and "98304 elements" in err
    assert "[1536, 1, 1]" in err
    assert not out.exists()


def test_new_with_uncovering_workgroup_sizes_and_types_is_refused(tmp_path):
    with pytest.raises(tosa_vkshader.codegen.CodegenError) as info:
        op_from_shader(ADD_ONE, language="GLSL", workgroup_sizes=[2, 1, 1],
                       operands=["tensor<1024xf32>"], results=["tensor<1024xf32>"])
    assert "VKS518" in {d.code for d in info.value.diagnostics}


def test_coverage_uses_what_the_converter_keeps_of_huge_values():
    """[2^32 + 1, 1, 1] is dispatched as 1 workgroup (the converter keeps 32 bits)."""
    op = {"domain_name": "com.arm.VulkanCustomShader", "operator_name": "add_one",
          "inputs": ["tensor<4096xf32>"], "outputs": ["tensor<4096xf32>"],
          "implementation_attrs": op_from_shader(ADD_ONE, language="GLSL").attrs
          | {"workgroup_sizes": [2**32 + 1, 1, 1]}}
    [d] = [d for d in validate(json.dumps(op)).diagnostics if d.code == "VKS518"]
    assert "low 32 bits" in d.message and "64 invocations" in d.message



VEC4_COPY = HEADER + """layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = x[i]; }
"""


def test_a_multi_component_format_is_covered_texel_by_texel():
    """A vec4 buffer over tensor<32x4xf32>: each invocation writes one texel of four
    elements, so 32 invocations cover the 128 elements."""
    t = "tensor<32x4xf32>"
    op = op_from_shader(VEC4_COPY, language="GLSL", operands=[t], results=[t])
    assert op.attrs["output_0_vkformat"] == "VK_FORMAT_R32G32B32A32_SFLOAT"
    assert op.attrs["workgroup_sizes"] == [2, 1, 1]
    document = {"domain_name": "com.arm.VulkanCustomShader", "operator_name": "copy",
                "inputs": [t], "outputs": [t],
                "implementation_attrs": op.attrs | {"workgroup_sizes": [1, 1, 1]}}
    [d] = [d for d in validate(json.dumps(document)).errors]
    assert d.code == "VKS518"
    assert "leave 64 of the 128 elements" in d.message and "[2, 1, 1]" in d.hint


# Two reads of a 16 x 16 texture per texel of two 8 x 8 images: at the corner shared by
# four texels (bilinear: their mean; nearest: texel 2p + 1), and 12.5 texels to the right
# of the texel's centre (repeat: wraps to column p.x - 4; clamp to edge: column 15).
SAMPLED_TWICE = """#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D src;
layout(binding = 1, rgba32f) uniform writeonly image2D corner;
layout(binding = 2, rgba32f) uniform writeonly image2D beyond;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(corner, p, textureLod(src, vec2(2 * p + 1) / 16.0, 0.0));
    imageStore(beyond, p, textureLod(src, (vec2(p) + vec2(12.5, 0.5)) / 16.0, 0.0));
}
"""


def test_without_a_sampler_the_runtime_samples_nearest_and_clamps_to_the_edge():
    """VKS425's claim: an op whose sampled image has no input_N_sampler is sampled with
    NEAREST filtering and CLAMP_TO_EDGE addressing; with `--sampler-of src=linear,repeat`
    (input_0_sampler) the same shader filters and wraps."""
    tex = np.random.default_rng(425).uniform(0, 1, (1, 16, 16, 4)).astype(np.float32)
    t_in, t_out = "tensor<1x16x16x4xf32>", "tensor<1x8x8x4xf32>"
    rows, cols = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
    wrapped, clamped = tex[0][rows, (cols + 12) % 16], tex[0][rows, np.minimum(cols + 12, 15)]
    for sampler_of, corner, beyond in (
            ({}, tex[0][2 * rows + 1, 2 * cols + 1], clamped),
            ({"src": "linear,repeat"},
             tex[0].reshape(8, 2, 8, 2, 4).mean(axis=(1, 3)), wrapped)):
        op = op_from_shader(source=SAMPLED_TWICE, language="GLSL", sampler_of=sampler_of,
                            format_of={"src": "VK_FORMAT_R32G32B32A32_SFLOAT"},
                            operands=[t_in], results=[t_out, t_out])
        assert ("VKS425" in [d.code for d in op.notes]) == (not sampler_of)
        got = tosa_vkshader.run(op.to_mlir([t_in], [t_out, t_out]), [tex])
        np.testing.assert_allclose(got[0][0], corner, atol=1e-6)
        np.testing.assert_allclose(got[1][0], beyond, atol=1e-6)

# -- what a buffer's layout and format make of the tensor's bytes ------------------------

VEC2_LENGTH = HEADER + """layout(local_size_x = 1) in;
layout(set = 0, binding = 0) readonly buffer V { vec2 v[]; };
layout(set = 0, binding = 1) writeonly buffer N { uint n[]; };
void main() { n[0] = uint(v.length()); }
"""


def test_a_vector_format_makes_length_count_the_allocation_not_the_tensor():
    """The runtime allocates a buffer as the tensor's elements times the format's texel:
    over tensor<500x2xf32>, `.length()` of a `vec2[]` is 1000 with R32G32_SFLOAT and 500
    with the tensor's R32_SFLOAT, which `new` therefore gives a buffer whose `.length()`
    the shader reads (codegen/infer.py)."""
    t, n = "tensor<500x2xf32>", "tensor<1xui32>"
    x = np.zeros((500, 2), np.float32)
    made = op_from_shader(VEC2_LENGTH, language="GLSL", operands=[t], results=[n])
    assert made.attrs["input_0_vkformat"] == "VK_FORMAT_R32_SFLOAT"
    vector = op_from_shader(VEC2_LENGTH, language="GLSL", operands=[t], results=[n],
                            format_of={"V": "VK_FORMAT_R32G32_SFLOAT"})
    [as_made] = tosa_vkshader.run(made.to_mlir([t], [n]), [x])
    [as_vectors] = tosa_vkshader.run(vector.to_mlir([t], [n]), [x])
    assert (int(as_made[0]), int(as_vectors[0])) == (500, 1000)


STD140_ADD_ONE = ADD_ONE.replace("layout(set = 0, binding = 0)",
                                 "layout(std140, set = 0, binding = 0)")


def test_a_std140_float_array_reads_every_fourth_float_of_the_tensor():
    """No VkFormat describes floats 16 bytes apart (`new` refuses, VKS602): given
    R32_SFLOAT anyway, the shader's a[i] is the tensor's element 4 i."""
    t = "tensor<256xf32>"
    with pytest.raises(tosa_vkshader.codegen.CodegenError) as info:
        op_from_shader(STD140_ADD_ONE, language="GLSL", operands=[t], results=[t])
    assert "VKS602" in {d.code for d in info.value.diagnostics}
    op = op_from_shader(STD140_ADD_ONE, language="GLSL", operands=[t], results=[t],
                        format_of={"In": "VK_FORMAT_R32_SFLOAT"})
    x = np.arange(256, dtype=np.float32)
    [y] = tosa_vkshader.run(op.to_mlir([t], [t]), [x], validate=False)
    np.testing.assert_array_equal(y[:64], x[::4] + 1)


# -- specialization constants -------------------------------------------------------------

# ggml's way: the local size and BLOCK_SIZE share SpecId 0, one value once a pipeline
# specializes it; each row summed by BLOCK_SIZE invocations through shared memory.
ROW_SUM_SPEC = HEADER + """layout(constant_id = 0) const uint BLOCK_SIZE = 64;
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
shared float partial[BLOCK_SIZE];
void main() {
    uint row = gl_WorkGroupID.x, tid = gl_LocalInvocationID.x;
    partial[tid] = 0.0;
    for (uint col = tid; col < 256u; col += BLOCK_SIZE) partial[tid] += x[row * 256u + col];
    barrier();
    for (uint s = BLOCK_SIZE / 2u; s > 0u; s >>= 1u) {
        if (tid < s) partial[tid] += partial[tid + s];
        barrier();
    }
    if (tid == 0u) y[row] = partial[0];
}
"""


def test_a_spec_id_shared_by_the_local_size_runs_with_each_default():
    """Unspecialized, glslang's local size x defaults to 1 while BLOCK_SIZE is 64: one
    invocation per row adds the columns 0, 64, 128 and 192 only (VKS432 says so); the
    local size given the same default (the hint) sums the rows."""
    t, rows = "tensor<8x256xf32>", "tensor<8xf32>"
    x = np.random.default_rng(3).uniform(-1, 1, (8, 256)).astype(np.float32)
    mlir = mlir_of(ROW_SUM_SPEC, [t], [rows], workgroup_sizes=[8, 1, 1])
    [d] = [d for d in validate(mlir, path="model.mlir").diagnostics if d.code == "VKS432"]
    assert d.severity is Severity.WARNING
    assert "local size x (`local_size_x_id = 0`) = 1" in d.message
    assert "`BLOCK_SIZE` = 64" in d.message
    assert d.hint == ("give the local size the same default: "
                      "`layout(local_size_x_id = 0, local_size_x = 64) in;`")
    [y] = tosa_vkshader.run(mlir, [x], validate=False)
    np.testing.assert_allclose(y, x[:, ::64].sum(axis=1), rtol=1e-5, atol=1e-5)

    fixed = ROW_SUM_SPEC.replace("layout(local_size_x_id = 0) in;",
                                 "layout(local_size_x_id = 0, local_size_x = 64) in;")
    mlir = mlir_of(fixed, [t], [rows], workgroup_sizes=[8, 1, 1])
    assert "VKS432" not in codes(mlir)
    [y] = tosa_vkshader.run(mlir, [x], validate=False)
    np.testing.assert_allclose(y, x.sum(axis=1), rtol=1e-4, atol=1e-4)
