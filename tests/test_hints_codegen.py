"""Hints of code generation and repair (VKS6xx): `tosa-vkshader new` on a shader, `emit`,
`fix`; each where it fires and, followed (the option it names given), the problem gone."""

from __future__ import annotations

import sys

import pytest
from spirv_helpers import assemble

from tosa_vkshader import Options
from tosa_vkshader.codegen import CodegenError, op_from_shader
from tosa_vkshader.codegen.repair import repair

from conftest import FIXTURES
from hint_cases import hinted, not_reported

SHADERS = FIXTURES / "shaders"
CODEGEN = FIXTURES / "codegen"
LOCAL_SIZE = Options(workgroup_semantics="local-size")


def refused(shader, **kwargs) -> list:
    with pytest.raises(CodegenError) as info:
        op_from_shader(shader, **kwargs)
    return info.value.diagnostics


def made(shader, code: str, **kwargs) -> None:
    """Following the hint: the op is made, and the problem is not among its notes."""
    not_reported(op_from_shader(shader, **kwargs).notes, code)


def test_a_module_has_no_source_to_embed():
    shader = SHADERS / "copy_f32.spv"
    hinted(refused(shader, embed="source"), "VKS611", hint="use --embed spirv")
    made(shader, "VKS611", embed="spirv")


def test_an_entry_point_that_is_not_a_compute_one():
    shader = SHADERS / "two_entry_points.spv"
    hinted(refused(shader, entry_point="sideways"), "VKS600",
           hint="use --entry-point forward")
    made(shader, "VKS600", entry_point="forward")


def test_a_module_without_a_compute_entry_point(tmp_path):
    module = assemble((CODEGEN / "bad" / "fragment_only.spvasm").read_text(), tmp_path)
    hinted(refused(module), "VKS600", hint="give a compute shader")


def test_two_compute_entry_points():
    shader = SHADERS / "two_entry_points.spv"
    hinted(refused(shader), "VKS601", hint="choose one with --entry-point forward")
    made(shader, "VKS601", entry_point="forward")


def test_a_format_that_cannot_be_inferred():
    shader = SHADERS / "combined_sampler.spv"
    hinted(refused(shader), "VKS602", hint="give it with --format-of tex=VK_FORMAT_...")
    made(shader, "VKS602", format_of={"tex": "VK_FORMAT_R8G8B8A8_UNORM"})


def test_a_buffer_of_padded_vectors():
    """A std430 vec3 array is 16 bytes an element: no VkFormat has that layout, so the
    hint is to declare what one has (`--format-of` with a three-component format would
    make the op, and a run would show every fourth float of the tensor skipped)."""
    path = CODEGEN / "bad" / "vec3_buffer.comp"
    vec3 = path.read_text()
    found = hinted(refused(path), "VKS602",
                   hint="declare the elements as scalars (three to an element) or as "
                        "four-component vectors (a tensor of ...x4): both have a VkFormat")
    assert "its elements are 3-component vectors of float32 with an array stride of 16 " \
           "bytes (12 of data)" in found.message
    assert found.location is not None and found.location.line == \
        next(n for n, line in enumerate(vec3.splitlines(), 1) if "vec3 p[]" in line)
    made(vec3.replace("vec3", "vec4"), "VKS602", language="GLSL")
    # with the tensors given, no dispatch is guessed for an op that cannot be made (it
    # used to propose one invocation per float, "the writes could not be analysed")
    assert [d.code for d in refused(path, operands=["tensor<64x3xf32>"],
                                    results=["tensor<64xf32>"])] == ["VKS602"]


STD140_FLOATS = """#version 450
layout(local_size_x = 64) in;
layout(std140, binding = 0) readonly buffer In { float a[]; };
layout(std430, binding = 1) writeonly buffer Out { float b[]; };
void main() { uint i = gl_GlobalInvocationID.x; b[i] = a[i] + 1.0; }
"""


def test_a_std140_buffer_of_scalars(tmp_path):
    """std140 puts a float array's elements 16 bytes apart: no VkFormat has that layout
    (tests/test_runtime_truth.py runs it with R32_SFLOAT: every fourth float is read)."""
    path = tmp_path / "std140.comp"
    path.write_text(STD140_FLOATS)
    found = hinted(refused(path), "VKS602",
                   hint="declare the block `layout(std430)`: std140 rounds the stride of "
                        "an array up to 16 bytes")
    assert "its elements are float32 with an array stride of 16 bytes (4 of data)" \
        in found.message and found.location is not None and found.location.line == 3
    made(STD140_FLOATS.replace("std140", "std430"), "VKS602", language="GLSL")


IN_PLACE = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float d[]; };
void main() { uint i = gl_GlobalInvocationID.x; d[i] = d[i] * 2.0; }
"""
BLOCK_ARRAY = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Ins { float v[]; } ins[2];
layout(binding = 1) writeonly buffer Out { float o[]; };
void main() { uint i = gl_GlobalInvocationID.x; o[i] = ins[0].v[i] * ins[1].v[i]; }
"""
TWO_BLOCKS = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In0 { float v[]; } in0;
layout(binding = 1) readonly buffer In1 { float v[]; } in1;
layout(binding = 2) writeonly buffer Out { float o[]; };
void main() { uint i = gl_GlobalInvocationID.x; o[i] = in0.v[i] * in1.v[i]; }
"""
SEPARATE = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Data { float d[]; };
void main() { uint i = gl_GlobalInvocationID.x; d[i] = x[i] * 2.0; }
"""


def test_operands_without_a_binding_of_their_own(tmp_path):
    """A buffer written in place is a result, an array of descriptors one tensor: the op's
    operands have nowhere to go (the generic VKS510 would ask for input attributes)."""
    t = "tensor<256xf32>"
    in_place = hinted(refused(IN_PLACE, language="GLSL", operands=[t], results=[t]),
                      "VKS628", hint="read the operand from a `readonly buffer` at a "
                                     "binding of its own and write the result into Data")
    assert "Data (set 0, binding 0) is read and written in place" in in_place.message
    assert "operand 0 (tensor<256xf32>) has no binding" in in_place.message
    made(SEPARATE, "VKS628", language="GLSL", operands=[t], results=[t])
    path = tmp_path / "block_array.comp"
    path.write_text(BLOCK_ARRAY)
    array = hinted(refused(path, operands=[t, t], results=[t]),
                   "VKS628", hint="declare one block per operand, each at its own binding")
    assert "ins (set 0, binding 0) is an array of 2 descriptors" in array.message
    assert array.location is not None and array.location.line == 3
    made(TWO_BLOCKS, "VKS628", language="GLSL", operands=[t, t], results=[t])


ONE_PER_ELEMENT = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float a[]; };
layout(binding = 1) writeonly buffer Out { float b[]; };
void main() { uint i = gl_GlobalInvocationID.x; b[i] = a[i] * 0.5; }
"""


def test_more_elements_than_a_dispatch_reaches_along_x():
    """8M elements, one invocation each, 64 a workgroup: 131072 workgroups along x, past
    the 65535 every device dispatches; the fix is a grid-stride loop, not a guard."""
    t = "tensor<8388608xf32>"
    found = hinted(refused(ONE_PER_ELEMENT, language="GLSL", operands=[t], results=[t]),
                   "VKS623", hint="loop over the elements with a grid stride (`for (uint i "
                                  "= gid.x; i < N; i += gl_NumWorkGroups.x * "
                                  "gl_WorkGroupSize.x)`), or index with y too")
    assert "65535 workgroups along x is the most every Vulkan device dispatches" \
        in found.message
    strided = ONE_PER_ELEMENT.replace(
        "uint i = gl_GlobalInvocationID.x; b[i] = a[i] * 0.5;",
        "for (uint i = gl_GlobalInvocationID.x; i < 8388608u; "
        "i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) b[i] = a[i] * 0.5;")
    made(strided, "VKS623", language="GLSL", operands=[t], results=[t])


def test_two_formats_for_one_binding():
    shader = SHADERS / "combined_sampler.spv"
    both = [("tex", "VK_FORMAT_R8G8B8A8_UNORM"), ("0:0", "VK_FORMAT_R8G8B8A8_SRGB")]
    hinted(refused(shader, format_of=both), "VKS603", hint="give each binding one format")
    made(shader, "VKS603", format_of=both[:1])


def test_a_format_the_shader_contradicts():
    shader = SHADERS / "storage_image_r32f.spv"
    hinted(refused(shader, format_of={"dst": "VK_FORMAT_R8G8B8A8_UNORM"}), "VKS603",
           hint="drop --format-of dst, or use VK_FORMAT_R32_SFLOAT")
    made(shader, "VKS603")


def test_a_format_that_is_not_a_vkformat():
    shader = SHADERS / "combined_sampler.spv"
    hinted(refused(shader, format_of={"tex": "VK_FORMAT_R8G8B8A8_UNORN"}), "VKS604",
           hint="did you mean VK_FORMAT_R8G8B8A8_UNORM?")
    made(shader, "VKS604", format_of={"tex": "VK_FORMAT_R8G8B8A8_UNORM"})


def test_a_binding_number_in_several_sets():
    shader = SHADERS / "multi_set.spv"
    hinted(refused(shader, format_of={"0": "VK_FORMAT_R32_SFLOAT"}), "VKS604",
           hint="use SET:BINDING")
    made(shader, "VKS604", format_of={"1:0": "VK_FORMAT_R32_SFLOAT"})


ALIASED = """#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; } src;
layout(set = 0, binding = 1) writeonly buffer Out { float data[]; } dst;
layout(set = 0, binding = 1) writeonly buffer Other { float data[]; } again;
void main() {
    uint i = gl_GlobalInvocationID.x;
    dst.data[i] = src.data[i];
    again.data[i] = 0.0;
}
"""


def test_two_variables_on_one_binding(tmp_path):
    shader = tmp_path / "aliased.comp"
    shader.write_text(ALIASED)
    hinted(refused(shader), "VKS605", hint="give each variable its own binding")
    shader.write_text(ALIASED.replace("binding = 1) writeonly buffer Other",
                                      "binding = 2) writeonly buffer Other"))
    made(shader, "VKS605")


# HLSL: t0 and u0 are registers of two classes, and both Vulkan binding 0.
HLSL_T0_U0 = """StructuredBuffer<float4> colors : register(t0);
RWStructuredBuffer<float4> premul : register(u0);
[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
    float4 c = colors[tid.x];
    premul[tid.x] = float4(c.rgb * c.a, c.a);
}
"""


def test_two_hlsl_register_classes_on_one_binding(tmp_path):
    """Located at the second declaration, with the HLSL way out; followed, the op is made."""
    shader = tmp_path / "premul.hlsl"
    shader.write_text(HLSL_T0_U0)
    found = hinted(refused(shader), "VKS605", hint=(
        "registers of different classes (t0, u0, b0, s0) are the same Vulkan binding: give "
        "`premul` one of its own, e.g. `[[vk::binding(1, 0)]]` or a register number no "
        "other resource uses"))
    assert found.location is not None and (found.location.line, found.location.column) == (2, 1)
    shader.write_text(HLSL_T0_U0.replace("RWStructuredBuffer<float4> premul : register(u0);",
                                         "[[vk::binding(1, 0)]] RWStructuredBuffer<float4> "
                                         "premul;"))
    made(shader, "VKS605")


NO_LOCAL_SIZE = """
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
"""


def test_a_local_size_the_module_does_not_state(tmp_path):
    module = assemble(NO_LOCAL_SIZE, tmp_path)
    hinted(refused(module, options=LOCAL_SIZE), "VKS608",
           hint="give it with --workgroup-sizes X,Y,Z")
    with pytest.raises(CodegenError) as info:  # (spirv-val refuses such a module)
        op_from_shader(module, workgroup_sizes=[64, 1, 1], options=LOCAL_SIZE)
    not_reported(info.value.diagnostics, "VKS608")


def test_workgroup_sizes_that_contradict_the_local_size():
    shader = SHADERS / "copy_f32.spv"
    hinted(refused(shader, workgroup_sizes=[16, 1, 1], options=LOCAL_SIZE), "VKS609",
           hint="drop --workgroup-sizes (it is [64, 1, 1]), or use --workgroup-semantics "
                "dispatch if you mean the number of workgroups")
    made(shader, "VKS609", options=LOCAL_SIZE)
    made(shader, "VKS609", workgroup_sizes=[16, 1, 1])


def test_a_file_that_is_not_a_shader(tmp_path):
    shader = tmp_path / "kernel.txt"
    shader.write_text((SHADERS / "copy_f32.comp").read_text())
    hinted(refused(shader), "VKS613",
           hint="use .comp/.glsl (GLSL), .hlsl (HLSL) or .spv (SPIR-V)")
    made(shader.rename(tmp_path / "kernel.comp"), "VKS613")


def test_emitting_tosa_without_the_tosa_tools(monkeypatch):
    types = (["tensor<64xf32>"], ["tensor<64xf32>"])
    op = op_from_shader(SHADERS / "copy_f32.spv", operands=types[0], results=types[1])
    with monkeypatch.context() as without:
        without.setitem(sys.modules, "tosa_serializer", None)  # as if not installed
        with pytest.raises(CodegenError) as info:
            op.to_tosa_bytes(*types)
    hinted(info.value.diagnostics, "VKS618",
           hint="pip install tosa-tools (into the environment tosa-vkshader runs in)")
    assert op.to_tosa_bytes(*types)[4:8] == b"TOSA"  # installed: written


@pytest.mark.parametrize(("name", "hint"), [
    ("duplicate_keys.json", "remove the duplicates by hand, then run fix again"),
    ("ambiguous_no_target.json", "rename or remove it by hand"),
    ("ambiguous_target_taken.json", "decide by hand which value of `input_0_binding` is right"),
])
def test_fix_leaves_what_only_a_person_can_decide(name, hint):
    result = repair((CODEGEN / "fix" / name).read_text(), name, Options())
    assert result.fixed is None
    hinted(result.problems, "VKS620", hint=hint)


def test_fix_does_not_embed_a_shader_that_does_not_compile():
    result = repair((CODEGEN / "fix" / "broken_glsl_to_embed.json").read_text(), None,
                    Options(), embed_spirv=True)
    hinted(result.problems, "VKS622", hint="fix the shader errors above first")
    fixed = repair((CODEGEN / "fix" / "glsl_to_embed.json").read_text(), None, Options(),
                   embed_spirv=True)
    not_reported(fixed.problems, "VKS622")



def _one_output_shader(path, layout: str):
    """A GLSL file writing one buffer, with the given local size ``layout``."""
    path.write_text(f"#version 460\nlayout({layout}) in;\n"
                    "layout(set = 0, binding = 0) buffer Out { float o[]; };\n"
                    "void main() { o[gl_GlobalInvocationID.x] = 1.0; }\n")
    return op_from_shader(path, results=["tensor<1x1000xf32>"])


def test_a_local_size_of_one_invocation(tmp_path):
    shader = tmp_path / "one.comp"
    op = _one_output_shader(shader, "local_size_x = 1")
    hinted(list(op.notes), "VKS614", hint="declare a local size of 64 or more invocations, "
           "e.g. `layout(local_size_x = 64) in;` (HLSL: `[numthreads(64, 1, 1)]`), and index "
           "with gl_GlobalInvocationID")
    (diag,) = [d for d in op.notes if d.code == "VKS614"]
    assert str(diag.location) == f"{shader}:2:1" and "[1000, 1, 1]" in diag.message
    shader.write_text(shader.read_text().replace("local_size_x = 1", "local_size_x = 64"))
    # (the store is unguarded: with 64 a workgroup, only a multiple of 64 is written
    # exactly; 1,000 elements would be refused, VKS623)
    made(shader, "VKS614", results=["tensor<1x1024xf32>"])


def test_a_specializable_local_size_says_what_was_written(tmp_path):
    op = _one_output_shader(tmp_path / "spec.comp", "local_size_x_id = 0")
    assert op.attrs["workgroup_sizes"] == [1000, 1, 1]
    (diag,) = [d for d in op.notes if d.code == "VKS610"]
    assert "written as [1000, 1, 1]" in diag.message and "[1, 1, 1]" not in diag.message
