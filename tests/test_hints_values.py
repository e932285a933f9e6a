"""Hints of the value rules (VKS2xx), each where it fires: following the hint makes the
problem go away without a new error."""

from __future__ import annotations

import base64
import json

import pytest

from tosa_vkshader import Options, validate
from tosa_vkshader.cli import main

from conftest import FIXTURES
from hint_cases import Case, after_fix, check_attributes, hinted

SPIRV_OP = json.loads((FIXTURES / "spirv" / "valid" / "copy_f32.json").read_text())
MODULE = SPIRV_OP["shader_code"]
OTHER_OP = json.loads((FIXTURES / "spirv" / "valid" / "atomic_histogram.json").read_text())
GLSL_OP = json.loads((FIXTURES / "glsl" / "valid" / "buffer-scale.json").read_text())
PLAIN = {k: v for k, v in SPIRV_OP.items() if not k.startswith("shader_")}
IMAGE = {**PLAIN, **{k: v for k, v in json.loads(
    (FIXTURES / "valid" / "image-with-sampler.json").read_text()).items()
    if k.startswith("input_0")}}
SAMPLER = IMAGE["input_0_sampler"]


def _with(base: dict, **changes) -> dict:
    return {**base, **changes}


def _without(base: dict, *keys: str) -> dict:
    return {k: v for k, v in base.items() if k not in keys}


def _sampler(**changes) -> dict:
    return _with(IMAGE, input_0_sampler={**SAMPLER, **changes})


LOCAL_SIZE = Options(workgroup_semantics="local-size")
BIG_LOCAL = GLSL_OP["shader_code"].replace("local_size_x = 8", "local_size_x = 256")

CASES = [
    Case("VKS200", _with(PLAIN, input_0_binding="0"), "write the number without quotes: 0",
         PLAIN),
    Case("VKS200", _with(PLAIN, input_0_binding=0.0), "write 0", PLAIN),
    Case("VKS200", _with(PLAIN, push_constants=None), "leave the key out, or give it a value",
         PLAIN),
    Case("VKS200", _with(PLAIN, is_vkshader="true"), "write true without quotes",
         _with(PLAIN, is_vkshader=True)),
    Case("VKS201", _with(PLAIN, entry_point="main()"), 'use "main"', PLAIN),
    Case("VKS201", _with(PLAIN, entry_point=""),
         'use the name of the shader\'s entry function, e.g. "main"', PLAIN),
    Case("VKS202", _with(PLAIN, workgroup_sizes=[64, 1]), "use [64, 1, 1]", PLAIN),
    Case("VKS202", _with(PLAIN, workgroup_sizes=[64, 1, 1, 1]), "use [64, 1, 1]", PLAIN),
    Case("VKS202", _with(PLAIN, workgroup_sizes=[64.0, 1, 1]), "write 64", PLAIN,
         pointer="/workgroup_sizes/0"),
    Case("VKS202", _with(PLAIN, workgroup_sizes=["64", 1, 1]), "write 64 without quotes",
         PLAIN, pointer="/workgroup_sizes/0"),
    Case("VKS202", _with(PLAIN, workgroup_sizes=[64, 0, 1]),
         "use 1 for a dimension the dispatch does not use", PLAIN,
         pointer="/workgroup_sizes/1"),
    Case("VKS204", _with(GLSL_OP, shader_language="glsl"), 'did you mean "GLSL"?', GLSL_OP),
    Case("VKS205", _without(GLSL_OP, "shader_code"),
         "add the shader to `shader_code`, or leave out `shader_language`",
         _without(GLSL_OP, "shader_code", "shader_language")),
    Case("VKS205", _without(GLSL_OP, "shader_language"),
         'set `"shader_language": "GLSL"`', GLSL_OP),
    Case("VKS205", _without(SPIRV_OP, "shader_language"),
         'set `"shader_language": "SPIR-V"`', SPIRV_OP),
    Case("VKS205", _with(PLAIN, shader_code=""),
         "leave out `shader_code`, or set `shader_language` and the shader", PLAIN),
    Case("VKS206", _with(SPIRV_OP, shader_code=MODULE[:40] + "\n" + MODULE[40:]),
         "remove whitespace and line breaks from the base64 text", SPIRV_OP),
    Case("VKS206", _with(OTHER_OP, shader_code=OTHER_OP["shader_code"].replace("/", "_")),
         "use the standard alphabet (+ and /), not the URL-safe one (- and _)", OTHER_OP),
    Case("VKS206", _with(SPIRV_OP, shader_code=MODULE + "===="), "remove the trailing `=`",
         SPIRV_OP),
    Case("VKS206", _with(SPIRV_OP, shader_code=MODULE[:-4] + "A=AA"),
         "encode the .spv file with `base64 -w0`", SPIRV_OP),
    Case("VKS207", _with(SPIRV_OP, shader_code=base64.b64encode(
        base64.b64decode(MODULE)[:-1]).decode()),
         "encode the whole .spv file again with `base64 -w0`", SPIRV_OP),
    Case("VKS208", _with(SPIRV_OP, shader_code="I3ZlcnNpb24gNDYwCnZvaWQgbWFpbigpIHt9Cg=="),
         'this looks like shader source: set "shader_language" to "GLSL" or "HLSL" and put '
         "the text in shader_code", SPIRV_OP),
    Case("VKS208", _with(SPIRV_OP, shader_code="AAECAwQFBgcICQoLDA0ODxAREhMUFRYX"),
         "base64-encode the .spv file produced by the compiler", SPIRV_OP),
    Case("VKS210", _with(PLAIN, push_constants="scale: 4,, bias: 4"), "remove the extra comma",
         _with(PLAIN, push_constants="scale: 4, bias: 4")),
    Case("VKS210", _with(PLAIN, push_constants="scale 4"),
         'write entries as "name: size", separated by commas',
         _with(PLAIN, push_constants="scale: 4")),
    Case("VKS210", _with(PLAIN, push_constants="2scale: 4"),
         "use letters, digits and underscores, not starting with a digit",
         _with(PLAIN, push_constants="scale2: 4")),
    Case("VKS210", _with(PLAIN, push_constants="scale: four"), "give the size in bytes, e.g. 4",
         _with(PLAIN, push_constants="scale: 4")),
    Case("VKS211", _with(PLAIN, push_constants="scale: 4, scale: 4"),
         "give each member its own name", _with(PLAIN, push_constants="scale: 4, bias: 4")),
    Case("VKS212", _with(PLAIN, push_constants="scale: 3"), "use 4",
         _with(PLAIN, push_constants="scale: 4")),
    Case("VKS213", _with(PLAIN, push_constants="weights: 512"),
         "move large parameters into a uniform or storage buffer"),
    Case("VKS221", {("input_1" + k[7:] if k.startswith("input_0") else k): v
                    for k, v in PLAIN.items()},
         "rename the input_1_* keys to input_0_* (the op's first operand)", PLAIN),
    Case("VKS222", _with(PLAIN, output_0_binding=0), "give output_0 a free binding, e.g. 1",
         PLAIN),
    Case("VKS224", _with(PLAIN, input_0_vkdescriptortype="storage buffer"),
         "did you mean `VK_DESCRIPTOR_TYPE_STORAGE_BUFFER`?", PLAIN),
    Case("VKS225", _with(PLAIN, input_0_vkdescriptortype="VK_DESCRIPTOR_TYPE_STORAGE_BUFER"),
         "did you mean `VK_DESCRIPTOR_TYPE_STORAGE_BUFFER`?", PLAIN),
    Case("VKS226", _with(PLAIN, input_0_vkformat="VK_FORMAT_R32_SFLOT"),
         "did you mean `VK_FORMAT_R32_SFLOAT`?", PLAIN),
    Case("VKS226", _with(PLAIN, input_0_vkformat="R32_SFLOAT"),
         "did you mean `VK_FORMAT_R32_SFLOAT`?", PLAIN),
    Case("VKS227", _with(PLAIN, input_0_type="Array"),
         'use "Buffer" for VK_DESCRIPTOR_TYPE_STORAGE_BUFFER', PLAIN),
    Case("VKS228", _with(PLAIN, input_0_type="buffer"), 'write "Buffer"', PLAIN),
    Case("VKS229", _with(PLAIN, input_0_type="Image"), 'use "Buffer"', PLAIN),
    Case("VKS230", _with(PLAIN, input_0_sampler=SAMPLER),
         "remove the sampler, or use VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER", PLAIN),
    Case("VKS231", _sampler(min_filtr="VK_FILTER_LINEAR"), "did you mean `min_filter`?",
         IMAGE, pointer="/input_0_sampler/min_filtr"),
    Case("VKS231", _sampler(anisotropy=4),
         "remove it; the fields are min_filter, mag_filter, address_mode_u, address_mode_v, "
         "border_color",
         IMAGE, pointer="/input_0_sampler/anisotropy"),
    Case("VKS231", _sampler(min_filter="linear"), "did you mean `VK_FILTER_LINEAR`?", IMAGE,
         pointer="/input_0_sampler/min_filter"),
    Case("VKS231", _sampler(min_filter="VK_FILTER_CUBIC_EXT"),
         "write `VK_FILTER_CUBIC_IMG` (the same enumerant, listed by the schema)",
         _sampler(min_filter="VK_FILTER_CUBIC_IMG"), pointer="/input_0_sampler/min_filter"),
    Case("VKS232", _with(PLAIN, input_0_vkdescriptortype="VK_DESCRIPTOR_TYPE_TENSOR_ARM",
                         input_0_type="Tensor", input_0_vkformat="VK_FORMAT_R8G8B8A8_SINT"),
         "use VK_FORMAT_R8_SINT and put the channels in the tensor's shape",
         _with(PLAIN, input_0_vkdescriptortype="VK_DESCRIPTOR_TYPE_TENSOR_ARM",
               input_0_type="Tensor", input_0_vkformat="VK_FORMAT_R8_SINT")),
    Case("VKS232", _with(PLAIN, input_0_vkdescriptortype="VK_DESCRIPTOR_TYPE_STORAGE_IMAGE",
                         input_0_type="Image", input_0_vkformat="VK_FORMAT_R8G8B8_UNORM"),
         "use VK_FORMAT_R8G8B8A8_UNORM",
         _with(PLAIN, input_0_vkdescriptortype="VK_DESCRIPTOR_TYPE_STORAGE_IMAGE",
               input_0_type="Image", input_0_vkformat="VK_FORMAT_R8G8B8A8_UNORM")),
    Case("VKS240", _with(PLAIN, input_0_vkformat="VK_FORMAT_R16G16_S10_5_NV"),
         "write `VK_FORMAT_R16G16_SFIXED5_NV`",
         _with(PLAIN, input_0_vkformat="VK_FORMAT_R16G16_SFIXED5_NV")),
    Case("VKS242", _with(PLAIN, shader_language=""),
         "leave out both `shader_language` and `shader_code` for an op without a shader",
         PLAIN),
    Case("VKS243", _with(PLAIN, is_vkshader=None), "leave the key out, or give it a value",
         PLAIN),
    Case("VKS250", _with(PLAIN, push_constants="scale: 4"),
         "make sure whatever runs the model supplies the push constants, or pass the values "
         "in a buffer operand"),
    Case("VKS251", _with(PLAIN, input_0_vkdescriptortype="VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER"),
         "declare the block as `readonly buffer` (std430) in the shader and use "
         "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", PLAIN),
    Case("VKS252", _with(PLAIN, input_0_vkdescriptortype=
                         "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER"),
         "use a VK_DESCRIPTOR_TYPE_STORAGE_BUFFER (an array in the shader), a STORAGE_IMAGE "
         "or a TENSOR_ARM", PLAIN),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_hint(case):
    check_attributes(case)


def test_a_local_size_over_the_limits():
    sizes = _with(PLAIN, workgroup_sizes=[16, 16, 1])
    before = validate(sizes, LOCAL_SIZE)
    hinted(before.diagnostics, "VKS203",
           hint="keep x*y*z <= 128 (e.g. [8, 8, 1] or [128, 1, 1]) unless every target "
                "device reports larger maxComputeWorkGroup* limits")
    after_fix(before, validate(_with(sizes, workgroup_sizes=[8, 8, 1]), LOCAL_SIZE),
              "VKS203", None)


def test_a_shader_local_size_over_the_limits():
    op = _with(GLSL_OP, shader_code=BIG_LOCAL)
    before = validate(op)
    hinted(before.diagnostics, "VKS203",
           hint="keep x*y*z <= 128 (e.g. 8 x 8 x 1 or 128 x 1 x 1) unless every target "
                "device reports larger maxComputeWorkGroup* limits")
    after_fix(before, validate(GLSL_OP), "VKS203", None)


def test_hlsl_is_embedded_as_spirv_by_the_command_the_hint_names(tmp_path, capsys):
    path = tmp_path / "op.json"
    path.write_text((FIXTURES / "glsl" / "valid" / "hlsl-half-image.json").read_text())
    hint = "embed the compiled SPIR-V: tosa-vkshader fix FILE --embed spirv"
    before = validate(path.read_text())
    hinted(before.diagnostics, "VKS254", hint=hint)
    assert main(["fix", str(path), "--embed", "spirv"]) == 0
    capsys.readouterr()
    after_fix(before, validate(path.read_text()), "VKS254", None)
