"""Hints of the rules that compare the attributes with the shader (VKS41x, VKS42x, VKS430,
and VKS110 restated once the module names its entry point): following the hint makes the
finding go away without a new error."""

from __future__ import annotations

import base64
import json

import pytest
from spirv_helpers import assemble

from tosa_vkshader import Options, validate

from conftest import FIXTURES
from hint_cases import Case, after_fix, check_attributes, hinted


def _fixture(*parts: str) -> dict:
    return json.loads(FIXTURES.joinpath(*parts).read_text())


BUF = _fixture("glsl", "valid", "buffer-scale.json")  # src: binding 0 (read), dst: 1
PUSH = _fixture("glsl", "valid", "push-constant-scale.json")  # Params { float scale; }
IMAGE = {**_fixture("glsl", "invalid", "glsl-image-format-mismatch.json"),
         "output_0_vkformat": "VK_FORMAT_R32_SFLOAT"}
SAMPLED = _fixture("valid", "image-with-sampler.json")
SPIRV = _fixture("spirv", "valid", "copy_f32.json")
TENSOR = _fixture("spirv", "valid", "tensor_copy_int8.json")


def _with(base: dict, **changes) -> dict:
    return {**base, **changes}


def _without(base: dict, prefix: str) -> dict:
    return {k: v for k, v in base.items() if not k.startswith(prefix)}


def _shader(base: dict, old: str, new: str) -> dict:
    assert old in base["shader_code"]
    return _with(base, shader_code=base["shader_code"].replace(old, new))


READ_ONLY_PAIR = _shader(BUF, "writeonly buffer Output", "readonly buffer Output")
READ_ONLY_PAIR = _shader(READ_ONLY_PAIR, "dst.data[i] = src.data[i] * 2.0;",
                         "float v = src.data[i] * dst.data[i];")
EXTRA_READ = _shader(BUF, "void main() {", "layout(set = 0, binding = 2) buffer Aux "
                     "{ float data[]; } aux;\n\nvoid main() {")
EXTRA_READ = _shader(EXTRA_READ, "src.data[i] * 2.0", "src.data[i] * aux.data[i]")
TWO_MEMBERS = _shader(PUSH, "{ float scale; }", "{ float scale; float bias; }")
TWO_MEMBERS = _shader(TWO_MEMBERS, "* params.scale", "* params.scale + params.bias")
ALIGNED = _shader(PUSH, "{ float scale; }", "{ float scale; vec4 bias; }")
ALIGNED = _shader(ALIGNED, "* params.scale", "* params.scale + params.bias.x")
SPEC_GROUP = _shader(BUF, "layout(local_size_x = 8, local_size_y = 1, local_size_z = 1) in;",
                     "layout(constant_id = 0) const uint GROUP = 8;\n"
                     "layout(local_size_x_id = 0) in;")
SPEC_GROUP = _shader(SPEC_GROUP, "src.data[i] * 2.0", "src.data[i] * float(GROUP)")
SPEC_SCALE = _shader(SPEC_GROUP, "const uint GROUP = 8;", "const float SCALE = 2.0;")
SPEC_SCALE = _shader(SPEC_SCALE, "float(GROUP)", "SCALE")

CASES = [
    Case("VKS110", {k: v for k, v in SPIRV.items() if k != "entry_point"},
         'add `"entry_point": "main"`', SPIRV),
    Case("VKS410", _with(SPIRV, entry_point="mian"), "did you mean 'main'?", SPIRV),
    Case("VKS410", _with(SPIRV, entry_point="kernel"), "use 'main'", SPIRV),
    Case("VKS412", _with(BUF, output_0_binding=2),
         "did you mean descriptorset 0, binding 1 (dst)?", BUF),
    Case("VKS412", _with(BUF, output_0_descriptorset=1),
         "did you mean descriptorset 0, binding 1 (dst)?", BUF),
    Case("VKS413", _with(BUF, output_0_binding=2),
         "set output_0_binding to 1 (output_0 points at set 0, binding 2, where the shader "
         "has nothing)", BUF),
    Case("VKS413", _with(BUF, output_0_descriptorset=1, output_0_binding=2),
         "set output_0_descriptorset to 0 and output_0_binding to 1 (output_0 points at set "
         "1, binding 2, where the shader has nothing)", BUF),
    Case("VKS413", _without(BUF, "output_0"),
         'add output_0_descriptorset: 0, output_0_binding: 1, output_0_vkdescriptortype: '
         '"VK_DESCRIPTOR_TYPE_STORAGE_BUFFER" and output_0_vkformat: "VK_FORMAT_R32_SFLOAT"',
         _with(_without(BUF, "output_0"), output_0_descriptorset=0, output_0_binding=1,
               output_0_vkdescriptortype="VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
               output_0_vkformat="VK_FORMAT_R32_SFLOAT")),
    Case("VKS414", _with(BUF, input_0_vkdescriptortype="VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER"),
         "use VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", BUF),
    Case("VKS415", _with(IMAGE, output_0_vkformat="VK_FORMAT_R8G8B8A8_UNORM"),
         "use VK_FORMAT_R32_SFLOAT", IMAGE),
    Case("VKS415", _with(SAMPLED, input_0_vkformat="VK_FORMAT_R8G8B8A8_SINT"),
         "use VK_FORMAT_R8G8B8A8_UNORM", SAMPLED),
    Case("VKS415", _with(TENSOR, input_0_vkformat="VK_FORMAT_R32_SFLOAT"),
         "use VK_FORMAT_R8_SINT", TENSOR),
    Case("VKS416", _with(BUF, input_0_vkformat="VK_FORMAT_R8_SINT"),
         "use VK_FORMAT_R32_SFLOAT, or change the buffer's element type", BUF),
    Case("VKS417", _with(BUF, input_0_binding=1, output_0_binding=0),
         "set input_0_binding to 0 (`src`, which the shader reads)", BUF),
    Case("VKS418", _with(BUF, input_0_binding=1, output_0_binding=0),
         "set output_0_binding to 1 (`dst`, which the shader writes)", BUF),
    Case("VKS418", READ_ONLY_PAIR, "remove `readonly` from `dst` in the shader",
         _shader(READ_ONLY_PAIR, "readonly buffer Output", "buffer Output")),
    Case("VKS419", _with(_with(EXTRA_READ, output_0_binding=2)),
         "set output_0_binding to 1 (`dst`, which the shader writes)",
         _with(EXTRA_READ, input_1_binding=2, input_1_descriptorset=0,
               input_1_vkdescriptortype="VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
               input_1_vkformat="VK_FORMAT_R32_SFLOAT")),
    Case("VKS422", _with(PUSH, push_constants="scale: 8"), "use scale: 4", PUSH),
    Case("VKS422", _with(PUSH, push_constants="scal: 4"), "did you mean 'scale'?", PUSH),
    Case("VKS422", _with(TWO_MEMBERS, push_constants="scale: 4"),
         'use "push_constants": "scale: 4, bias: 4"',
         _with(TWO_MEMBERS, push_constants="scale: 4, bias: 4")),
    Case("VKS422", _with(ALIGNED, push_constants="scale: 4, bias: 16"),
         'use "push_constants": "scale: 4, pad_4: 12, bias: 16"',
         _with(ALIGNED, push_constants="scale: 4, pad_4: 12, bias: 16")),
    Case("VKS423", {k: v for k, v in PUSH.items() if k != "push_constants"},
         'add "push_constants": "scale: 4"', PUSH),
    Case("VKS423", _with(BUF, push_constants="scale: 4"),
         "remove push_constants, or check that this is the right shader", BUF),
    Case("VKS425", _without(SAMPLED, "input_0_sampler"),
         'declare them: `"input_0_sampler": {"min_filter": "VK_FILTER_LINEAR", "mag_filter": '
         '"VK_FILTER_LINEAR", "address_mode_u": "VK_SAMPLER_ADDRESS_MODE_REPEAT", '
         '"address_mode_v": "VK_SAMPLER_ADDRESS_MODE_REPEAT", "border_color": '
         '"VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK"}` (NEAREST, CLAMP_TO_EDGE, '
         'CLAMP_TO_BORDER, MIRRORED_REPEAT as the shader needs)', SAMPLED),
    Case("VKS432", SPEC_GROUP, "give the local size the same default: "
                               "`layout(local_size_x_id = 0, local_size_x = 8) in;`",
         _shader(SPEC_GROUP, "layout(local_size_x_id = 0) in;",
                 "layout(local_size_x_id = 0, local_size_x = 8) in;")),
    Case("VKS432", SPEC_SCALE, "give the constants the same default, or each a SpecId of "
                               "its own",
         _shader(SPEC_SCALE, "constant_id = 0) const float", "constant_id = 1) const float")),
    Case("VKS430", BUF, "make it the number of workgroups the results need (`tosa-vkshader "
                        "new SHADER --results TYPES` computes it)"),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_hint(case):
    check_attributes(case)


def test_workgroup_sizes_read_as_the_local_size_takes_the_shaders():
    local = Options(workgroup_semantics="local-size")
    given = _with(BUF, workgroup_sizes=[16, 1, 1])
    before = validate(given, local)
    hinted(before.diagnostics, "VKS420",
           hint='set workgroup_sizes to [8, 1, 1], or, if it is meant as the dispatch shape, '
                'set workgroup-semantics = "dispatch" in [tool.tosa-vkshader]')
    after_fix(before, validate(_with(given, workgroup_sizes=[8, 1, 1]), local), "VKS420",
              None)


ENTRIES = """
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %shade "shade"
{compute}
               OpExecutionMode %shade OriginUpperLeft
{mode}
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %shade = OpFunction %void None %fn
         %l1 = OpLabel
               OpReturn
               OpFunctionEnd
{body}
"""
COMPUTE = ('               OpEntryPoint GLCompute %kernel "kernel"',
           "               OpExecutionMode %kernel LocalSize 1 1 1",
           "     %kernel = OpFunction %void None %fn\n         %l2 = OpLabel\n"
           "               OpReturn\n               OpFunctionEnd")


def _module(tmp_path, with_compute: bool) -> str:
    compute, mode, body = COMPUTE if with_compute else ("", "", "")
    module = assemble(ENTRIES.format(compute=compute, mode=mode, body=body), tmp_path)
    return base64.b64encode(module.read_bytes()).decode()


def _op(code: str, entry: str) -> dict:
    return {"entry_point": entry, "workgroup_sizes": [1, 1, 1], "shader_language": "SPIR-V",
            "shader_code": code}


def test_a_fragment_entry_point_beside_a_compute_one(tmp_path):
    code = _module(tmp_path, with_compute=True)
    before = validate(_op(code, "shade"))
    hinted(before.diagnostics, "VKS411", hint="use 'kernel', the module's compute entry point")
    after_fix(before, validate(_op(code, "kernel")), "VKS411", None)


def test_a_module_without_a_compute_entry_point(tmp_path):
    before = validate(_op(_module(tmp_path, with_compute=False), "shade"))
    hinted(before.diagnostics, "VKS411",
           hint="attach a compute shader (#pragma shader_stage(compute), or glslc "
                "-fshader-stage=compute)")
