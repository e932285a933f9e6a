"""`tosa-vkshader compile`: SPIR-V out, atomically, with the usual exit codes."""

from __future__ import annotations

import json
import shutil

import pytest

from tosa_vkshader.cli import main
from tosa_vkshader.compile import CompileRequest, compile_many

from compile_helpers import is_spirv
from conftest import FIXTURES

GLSL = FIXTURES / "glsl"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(tmp_path / "cache"))


def test_compiles_the_shader_of_an_attribute_file(tmp_path):
    out = tmp_path / "out.spv"
    assert main(["compile", str(GLSL / "valid" / "buffer-scale.json"), "-o", str(out)]) == 0
    attrs = json.loads((GLSL / "valid" / "buffer-scale.json").read_text())
    expected = compile_many([CompileRequest(attrs["shader_code"], "GLSL")])[0].spirv
    assert out.read_bytes() == expected


def test_compiles_an_hlsl_attribute_file_with_its_entry_point(tmp_path):
    out = tmp_path / "out.spv"
    assert main(["compile", str(GLSL / "valid" / "hlsl-half-image.json"), "-o", str(out)]) == 0
    assert b"CSMain\0" in out.read_bytes()


def test_compiles_bare_shader_files(tmp_path):
    shader = tmp_path / "scale.comp"
    shader.write_text("#version 460\nlayout(local_size_x = 8) in;\nvoid main() { }\n")
    out = tmp_path / "scale.spv"
    assert main(["compile", str(shader), "-o", str(out), "--no-cache"]) == 0
    assert is_spirv(out.read_bytes())
    hlsl = tmp_path / "k.hlsl"
    hlsl.write_text("[numthreads(4, 1, 1)]\nvoid Go() { }\n")
    assert main(["compile", str(hlsl), "--entry-point", "Go", "-o", str(out)]) == 0
    assert b"Go\0" in out.read_bytes()


def test_errors_exit_1_with_the_json_position_and_leave_no_file(tmp_path, capsys):
    out = tmp_path / "out.spv"
    out.write_bytes(b"previous")
    source = GLSL / "invalid" / "glsl-syntax-error.json"
    assert main(["compile", str(source), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{source}:9:310: error[VKS300]" in err
    assert out.read_bytes() == b"previous"  # untouched, never half-written
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []


def test_bare_shader_errors_point_into_the_shader_file(tmp_path, capsys):
    shader = tmp_path / "bad.glsl"
    shader.write_text("void main() {\n  int x = ;\n}\n")
    assert main(["compile", str(shader), "-o", str(tmp_path / "bad.spv")]) == 1
    assert f"{shader}:2:11: error[VKS300]" in capsys.readouterr().err
    assert not (tmp_path / "bad.spv").exists()


def test_spirv_attribute_files_give_their_decoded_binary(tmp_path):
    out = tmp_path / "out.spv"
    assert main(["compile", str(FIXTURES / "valid" / "spec-spirv-example.json"),
                 "-o", str(out)]) == 0
    assert is_spirv(out.read_bytes())


def test_missing_compiler_is_an_environment_failure(tmp_path, capsys):
    out = tmp_path / "out.spv"
    code = main(["compile", str(GLSL / "valid" / "buffer-scale.json"), "-o", str(out),
                 "--glslc", str(tmp_path / "no-glslc")])
    assert code == 2
    assert "VKS910" in capsys.readouterr().err and not out.exists()


def test_usage_errors_exit_2(tmp_path):
    assert main(["compile", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x")]) == 2
    odd = tmp_path / "shader.txt"
    odd.write_text("void main() {}")
    assert main(["compile", str(odd), "-o", str(tmp_path / "x")]) == 2


def test_includes_need_an_explicit_folder(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "k.glsl").write_text("const float K = 2.0;\n")
    shader = tmp_path / "main.comp"
    shader.write_text('#version 460\n#include "k.glsl"\nvoid main() { float v = K; }\n')
    out = tmp_path / "main.spv"
    assert main(["compile", str(shader), "-o", str(out)]) == 1
    assert main(["compile", str(shader), "-o", str(out), "-I", str(tmp_path / "inc"),
                 "-D", "UNUSED=1"]) == 0
    assert is_spirv(out.read_bytes())


def test_writes_to_stdout(capsysbinary):
    stub = FIXTURES / "invalid" / "spec-glsl-example-stub-shader.json"  # compiles fine
    assert main(["compile", str(stub), "-o", "-"]) == 0
    assert is_spirv(capsysbinary.readouterr().out)


def test_glslc_is_really_there():
    # The compile tests must run, not skip, wherever the project is tested.
    assert shutil.which("glslc"), "install glslc: apt-get install glslc"
