"""Hints of issue 27's findings: macros the runtime does not see (VKS310), includes it
cannot resolve (VKS312), HLSL beyond
glslang (VKS311), and what `new` says it embedded (VKS624, VKS625); each where it fires
and, the hint followed, the problem gone."""

from __future__ import annotations

import pytest
from test_thirdparty_macros import HEADER, INCLUDING, attributes_with

from tosa_vkshader import Options, validate
from tosa_vkshader.codegen import CodegenError, op_from_shader

from hint_cases import hinted, not_reported

SCALE = """#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = x[i] * SCALE; }
"""
HLSL = """struct Params { float scale; };
[[vk::push_constant]] Params pc;
RWStructuredBuffer<float> y : register(u1);
StructuredBuffer<float> x : register(t0);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { y[id.x] = x[id.x] * pc.scale; }
"""


def test_a_configured_macro_the_runtime_does_not_see():
    configured = Options(macros=(("SCALE", "2.0"),))
    before = validate(attributes_with(SCALE), configured)
    hinted(before.diagnostics, "VKS310",
           hint="put the definitions into shader_code (`#define NAME VALUE` after #version; "
                "`tosa-vkshader new SHADER -D NAME=VALUE` writes them), or embed SPIR-V")
    defined = SCALE.replace("#version 460\n", "#version 460\n#define SCALE 2.0\n")
    after = validate(attributes_with(defined), configured)
    not_reported(after.diagnostics, "VKS310")
    assert after.ok


def test_an_include_the_runtime_cannot_resolve(tmp_path):
    (tmp_path / "scale.glsl").write_text(HEADER)
    allowed = Options(allow_includes=True, include_dirs=(str(tmp_path.resolve()),))
    before = validate(attributes_with(INCLUDING), allowed)
    hinted(before.diagnostics, "VKS312",
           hint="embed SPIR-V (`tosa-vkshader new SHADER -I DIR` does), or paste the "
                "included code into shader_code")
    pasted = INCLUDING.replace('#include "scale.glsl"\n', HEADER)
    after = validate(attributes_with(pasted), allowed)
    not_reported(after.diagnostics, "VKS312")
    assert after.ok


def test_hlsl_glslang_cannot_compile_names_the_form_it_can():
    with pytest.raises(CodegenError) as info:
        op_from_shader(source=HLSL, language="HLSL")
    hinted(info.value.diagnostics, "VKS311",
           hint="declare `[[vk::push_constant]] ConstantBuffer<Params> pc;`, which glslang "
                "makes a push-constant block; or install DXC (the HLSL compiler of the "
                "reference toolchain: the Vulkan SDK or DirectXShaderCompiler releases); with "
                "`dxc` on PATH tosa-vkshader compiles HLSL with it")
    op = op_from_shader(source=HLSL.replace("Params pc", "ConstantBuffer<Params> pc"),
                        language="HLSL")
    not_reported(op.notes, "VKS311")


def test_new_says_where_the_macros_went():
    op = op_from_shader(source=SCALE, language="GLSL", options=Options(
        macros=(("SCALE", "2.0"),)))
    hinted(op.notes, "VKS624", hint="--embed spirv embeds the compiled module instead")
    spirv = op_from_shader(source=SCALE, language="GLSL", embed="spirv",
                           options=Options(macros=(("SCALE", "2.0"),)))
    assert spirv.attrs["shader_language"] == "SPIR-V"
    assert all(d.hint is None for d in spirv.notes if d.code == "VKS624")


def test_new_says_it_embedded_hlsl_as_spirv():
    source = HLSL.replace("Params pc", "ConstantBuffer<Params> pc")
    op = op_from_shader(source=source, language="HLSL")
    hinted(op.notes, "VKS625",
           hint="--embed source keeps the HLSL text, for a runtime that compiles it")
    kept = op_from_shader(source=source, language="HLSL", embed="source")
    not_reported(kept.notes, "VKS625")
    assert kept.attrs["shader_language"] == "HLSL"


def test_new_says_it_embedded_a_shader_with_includes_as_spirv(tmp_path):
    from test_thirdparty_macros import HEADER, INCLUDING

    (tmp_path / "scale.glsl").write_text(HEADER)
    options = Options(allow_includes=True, include_dirs=(str(tmp_path),))
    op = op_from_shader(source=INCLUDING, language="GLSL", options=options)
    hinted(op.notes, "VKS626", hint="put the included code into the shader to embed its "
                                    "source")
    assert op.attrs["shader_language"] == "SPIR-V"
    with pytest.raises(CodegenError) as info:
        op_from_shader(source=INCLUDING, language="GLSL", options=options, embed="source")
    hinted(info.value.diagnostics, "VKS627",
           hint="leave out --embed source (SPIR-V is embedded), or put the included code "
                "into the shader")
    inlined = INCLUDING.replace('#include "scale.glsl"\n', HEADER)
    kept = op_from_shader(source=inlined, language="GLSL", embed="source")
    not_reported(kept.notes, "VKS626")
    assert kept.attrs["shader_language"] == "GLSL"


def test_an_hlsl_cbuffer_is_told_what_to_declare_in_hlsl():
    cbuffer = HLSL.replace("struct Params { float scale; };\n[[vk::push_constant]] Params pc;",
                           "cbuffer Params : register(b2) { float scale; };") \
        .replace("pc.scale", "scale")
    with pytest.raises(CodegenError) as info:
        op_from_shader(source=cbuffer, language="HLSL")
    hinted(info.value.diagnostics, "VKS251",
           hint="make `Params` a push-constant block (`[[vk::push_constant]] "
                "ConstantBuffer<...>`), or pass the values in a `StructuredBuffer`")
    followed = op_from_shader(source=HLSL.replace("Params pc", "ConstantBuffer<Params> pc"),
                              language="HLSL")
    not_reported(followed.notes, "VKS251")
