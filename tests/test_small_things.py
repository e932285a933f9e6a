"""Small things a newcomer trips on: emit shows the warnings of the op it embeds, and its
--help shows how tensor types are given."""

from __future__ import annotations

import json

import pytest

from tosa_vkshader.cli import main

UINT_OP = {"entry_point": "main", "workgroup_sizes": [1, 1, 1],
           "input_0_binding": 0, "input_0_descriptorset": 0,
           "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
           "input_0_vkformat": "VK_FORMAT_R32_UINT",
           "output_0_binding": 1, "output_0_descriptorset": 0,
           "output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
           "output_0_vkformat": "VK_FORMAT_R32_UINT",
           "producer_note": "kept, reported as a note"}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_emit_writes_the_op_and_shows_its_warnings_and_notes(capsys, tmp_path):
    attrs = tmp_path / "op.json"
    attrs.write_text(json.dumps(UINT_OP, indent=2))
    out_file = tmp_path / "op.mlir"
    # i32 tensors read through R32_UINT: legal, written, but said (VKS515), as is the
    # unknown key of the attributes themselves (VKS115).
    code, _, err = run(capsys, "emit", "mlir", str(attrs), "--operands", "tensor<4xi32>",
                       "--results", "tensor<4xi32>", "-o", str(out_file))
    assert code == 0 and "tosa.custom" in out_file.read_text()
    # each at its line of the attribute file
    assert f"{attrs}:11:23: warning[VKS515] input_0_vkformat is VK_FORMAT_R32_UINT" in err
    assert f"{attrs}:15:24: warning[VKS515] output_0_vkformat is VK_FORMAT_R32_UINT" in err
    assert f"{attrs}:16:3: info[VKS115]" in err
    assert err.count("VKS515") == 2  # each once, not once per stage


def test_emit_help_shows_several_operand_types_with_an_example(capsys):
    assert main(["emit", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--operands 'tensor<1x64xf32>,tensor<64xi8>' for two" in help_text
    assert "example: tosa-vkshader emit mlir add.json --operands" in help_text


SHADER = """#version 460
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = TILE) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = scale(x[i]); }
"""


def _shader_with_include(tmp_path, include: str = '"common.glsl"'):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "common.glsl").write_text("float scale(float v) { return 2.0 * v; }\n")
    (tmp_path / "secret.glsl").write_text("float scale(float v) { return v; }\n")
    shader = tmp_path / "k.comp"
    shader.write_text(SHADER.replace('"common.glsl"', include))
    return shader


def test_new_takes_defines_include_folders_and_target_env_like_glslc(capsys, tmp_path):
    shader = _shader_with_include(tmp_path)
    code, out, err = run(capsys, "new", str(shader), "-D", "TILE=32", "-I",
                         str(tmp_path / "lib"), "--target-env", "vulkan1.2")
    assert code == 0, err
    assert json.loads(out)["workgroup_sizes"] == [32, 1, 1]
    # Without them: the macro is unknown and the include refused, as check would say.
    code, _, err = run(capsys, "new", str(shader))
    assert code == 1 and "error[VKS303]" in err


def test_new_confines_includes_to_the_given_folders(capsys, tmp_path):
    shader = _shader_with_include(tmp_path, '"../secret.glsl"')
    code, _, err = run(capsys, "new", str(shader), "-D", "TILE=32", "-I", str(tmp_path / "lib"))
    assert code == 1
    assert "error[VKS304]" in err


def test_new_with_a_missing_include_folder_is_a_usage_error(capsys, tmp_path):
    shader = _shader_with_include(tmp_path)
    code, _, err = run(capsys, "new", str(shader), "-I", str(tmp_path / "nope"))
    assert code == 2 and f"-I {tmp_path / 'nope'}: no such folder" in err


def test_reflect_compiles_a_glsl_file(capsys, tmp_path):
    shader = _shader_with_include(tmp_path)
    shader.write_text(SHADER.replace('#include "common.glsl"\n', "")
                      .replace("scale(x[i])", "2.0 * x[i]").replace("TILE", "16"))
    code, out, _ = run(capsys, "reflect", str(shader))
    assert code == 0
    assert "local size: x=16, y=1, z=1" in out
    assert "set 0 binding 1" in out and "write" in out
    shader.write_text("#version 460\nlayout(local_size_x = 1) in;\nvoid main() { int x = ; }\n")
    code, out, err = run(capsys, "reflect", str(shader))
    assert code == 1 and out == ""
    assert f"{shader}:3:23: error[VKS300]" in err


def test_op_from_shader_never_guesses_between_a_path_and_source_text(tmp_path):
    from tosa_vkshader.codegen import op_from_shader

    shader = tmp_path / "relu.comp"
    shader.write_text(SHADER.replace('#include "common.glsl"\n', "")
                      .replace("scale(x[i])", "max(x[i], 0.0)").replace("TILE", "64"))
    by_path = op_from_shader(path=str(shader))
    by_source = op_from_shader(source=shader.read_text(), language="GLSL")
    assert by_path.attrs == by_source.attrs
    assert by_path.attrs["workgroup_sizes"] == [64, 1, 1]
    with pytest.raises(TypeError, match="names a file but language= asks"):
        op_from_shader(str(shader), language="GLSL")
    with pytest.raises(TypeError, match="exactly one of"):
        op_from_shader(path=str(shader), source="void main() {}", language="GLSL")
    with pytest.raises(TypeError, match='source= needs language="GLSL" or "HLSL"'):
        op_from_shader(source=shader.read_text())
