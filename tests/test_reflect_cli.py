"""`tosa-vkshader reflect`: output formats and exit codes."""

from __future__ import annotations

import base64
import json

from spirv_helpers import SHADERS, SPIRV_FIXTURES

from tosa_vkshader.cli import main


def test_text_output_for_a_spv_file(capsys):
    assert main(["reflect", str(SHADERS / "push_layout.spv")]) == 0
    out = capsys.readouterr().out
    assert "local size: x=8, y=8, z=1 (LocalSizeId)" in out
    assert "set 0 binding 0" in out and "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER" in out
    assert "push constants: pc (104 bytes)" in out
    assert "flags            offset 92   size 12" in out


def test_json_output_for_an_attribute_file_uses_its_entry_point(capsys):
    path = SPIRV_FIXTURES / "valid" / "two_entry_points.json"  # entry_point: backward
    assert main(["reflect", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["entry_point"] == "backward"
    assert [b["binding"] for b in data["bindings"]] == [2, 3]


def test_entry_point_option_wins(capsys):
    path = SPIRV_FIXTURES / "valid" / "two_entry_points.json"
    assert main(["reflect", str(path), "--entry-point", "forward", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["local_size"]["values"] == [64, 1, 1]


def test_tensor_module_text(capsys):
    assert main(["reflect", str(SHADERS / "tensor_array.spv")]) == 0
    out = capsys.readouterr().out
    assert "VK_DESCRIPTOR_TYPE_TENSOR_ARM" in out and "inputs[3]" in out and "rank 3" in out


def test_unknown_entry_point_exits_1(capsys):
    assert main(["reflect", str(SHADERS / "copy_f32.spv"), "--entry-point", "nope"]) == 1
    assert "no entry point 'nope'" in capsys.readouterr().err


def test_broken_module_exits_1(tmp_path, capsys):
    data = (SHADERS / "copy_f32.spv").read_bytes()
    path = tmp_path / "cut.spv"
    path.write_bytes(data[: len(data) // 8 * 4])
    assert main(["reflect", str(path)]) == 1
    assert "VKS401" in capsys.readouterr().err


def test_not_spirv_exits_1(tmp_path, capsys):
    path = tmp_path / "text.spv"
    path.write_text("not a module at all, just text....")
    assert main(["reflect", str(path)]) == 1
    assert "VKS400" in capsys.readouterr().err


def test_usage_errors_exit_2(tmp_path, capsys):
    assert main(["reflect", str(tmp_path / "missing.spv")]) == 2
    no_shader = tmp_path / "op.json"  # GLSL/HLSL attributes are compiled; none is usage
    no_shader.write_text(json.dumps({"entry_point": "main", "workgroup_sizes": [1, 1, 1]}))
    assert main(["reflect", str(no_shader)]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["reflect", str(bad)]) == 2
    not_b64 = tmp_path / "b64.json"
    not_b64.write_text(json.dumps({"shader_language": "SPIR-V", "shader_code": "@@@"}))
    assert main(["reflect", str(not_b64)]) == 2
    assert main(["reflect", str(SHADERS / "copy_f32.spv"), "--format", "yaml"]) == 2
    assert "reflect" in capsys.readouterr().err


def test_attribute_file_roundtrip(tmp_path, capsys):
    data = (SHADERS / "copy_f32.spv").read_bytes()
    path = tmp_path / "attrs.json"
    path.write_text(json.dumps({"entry_point": "main", "shader_language": "SPIR-V",
                                "shader_code": base64.b64encode(data).decode()}))
    assert main(["reflect", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["entry_point"] == "main"
