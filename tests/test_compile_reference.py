"""GLSL compiled by the reference runtime's own compiler (the scenario runner's glslc),
with shaderc's glslc as the fallback; the same diagnostics from both."""

from __future__ import annotations

import json
import shutil

import pytest

from tosa_vkshader.cli import main
from tosa_vkshader.compile import CompileOptions, CompileRequest, compile_many
from tosa_vkshader.compile.compiler import REFERENCE, REFERENCE_ENV, SHADERC

from compile_helpers import is_spirv
from conftest import ROOT

TENSOR_ADD = ROOT / "examples" / "tensor_add" / "tensor_add.comp"
SYNTAX_ERROR = "layout(local_size_x = 1) in;\nvoid main() {\n  int x = ;\n}\n"


@pytest.fixture(params=["reference", "shaderc"])
def either(request, monkeypatch) -> str:
    """Run a test once with each compiler; returns the kind expected to be used."""
    if request.param == "reference":
        request.getfixturevalue("reference_glslc")
        return REFERENCE
    monkeypatch.setenv(REFERENCE_ENV, "")
    return SHADERC


def one(source: str, **options) -> object:
    return compile_many([CompileRequest(source, "GLSL")], CompileOptions(**options))[0]


def test_arm_tensors_compile_clean_and_reflect_as_tensors(reference_glslc, capsys):
    assert main(["reflect", "--format", "json", str(TENSOR_ADD)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [b["descriptor_type"] for b in out["bindings"]] == \
        ["VK_DESCRIPTOR_TYPE_TENSOR_ARM"] * 3
    assert [b["name"] for b in out["bindings"]] == ["lhs", "rhs", "sum"]
    assert out["compiler"]["name"] == REFERENCE
    assert out["compiler"]["path"] == reference_glslc
    assert out["compiler"]["glslang"].startswith("vulkan-sdk-")


def test_without_the_wheel_shaderc_glslc_is_used_and_says_why_tensors_fail(monkeypatch):
    monkeypatch.setenv(REFERENCE_ENV, "")  # as if the scenario runner were not installed
    result = one(TENSOR_ADD.read_text())
    assert result.compiler.kind == SHADERC
    if result.compiler.glslang_version < (16, 0, 0):  # Debian's (glslang 11)
        assert [d.code for d in result.diagnostics] == ["VKS305"]
        assert "vulkan-sdk" not in result.diagnostics[0].message
    else:
        assert result.ok


def test_reflect_json_names_the_fallback_compiler(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv(REFERENCE_ENV, "")
    shader = tmp_path / "scale.comp"
    shader.write_text("#version 460\nlayout(local_size_x = 8) in;\nvoid main() { }\n")
    assert main(["reflect", "--format", "json", str(shader)]) == 0
    compiler = json.loads(capsys.readouterr().out)["compiler"]
    assert compiler["name"] == SHADERC and compiler["path"] == shutil.which("glslc")


def test_errors_map_to_the_same_place_with_either_compiler(either):
    result = one(SYNTAX_ERROR, cache=False)
    assert result.compiler.kind == either
    assert result.spirv is None
    [diag] = result.diagnostics
    assert diag.code == "VKS300" and "syntax error" in diag.message
    assert (diag.inner.line, diag.inner.column) == (3, 11)


def test_macros_reach_either_compiler(either, tmp_path):
    shader = tmp_path / "scale.comp"
    shader.write_text("layout(local_size_x = SIZE) in;\nvoid main() {\n#ifndef ON\n"
                      "#error ON is not defined\n#endif\n}\n")
    out = tmp_path / "out.spv"
    assert main(["compile", str(shader), "-o", str(out), "-D", "SIZE=4", "-D", "ON"]) == 0
    assert is_spirv(out.read_bytes())
    assert main(["compile", str(shader), "-o", str(out), "-D", "SIZE=4"]) == 1


def test_a_macro_value_with_spaces_is_refused_for_the_reference_compiler(reference_glslc):
    result = one("void main() { int x = SCALE; }\n", macros=(("SCALE", "2 * 3"),))
    assert result.spirv is None
    [diag] = result.diagnostics
    assert diag.code == "VKS308" and "SCALE" in diag.message and "'2 * 3'" in diag.message


def test_errors_in_included_files_point_at_the_include_line(either, tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "bad.glsl").write_text("int g() { return q; }\n")
    source = ("#version 460\n#extension GL_GOOGLE_include_directive : require\n"
              "layout(local_size_x = 1) in;\n#include \"bad.glsl\"\nvoid main() { }\n")
    result = one(source, allow_includes=True, include_dirs=(str(tmp_path / "inc"),),
                 cache=False)
    assert result.compiler.kind == either and result.spirv is None
    first = result.diagnostics[0]
    assert first.code == "VKS300" and "bad.glsl" in first.message and "`q`" in first.message
    assert (first.inner.line, first.inner.column) == (4, 1)


def test_include_confinement_holds_before_the_reference_compiler_runs(reference_glslc,
                                                                      tmp_path):
    result = one('#include "/etc/passwd"\nvoid main() { }\n', allow_includes=True,
                 include_dirs=(str(tmp_path),))
    assert [d.code for d in result.diagnostics] == ["VKS304"]
    assert result.compiler is None  # no compiler ever saw it


def test_hlsl_still_goes_to_shaderc_glslc(reference_glslc):
    source = ("RWTexture2D<float> img : register(u0);\n[numthreads(1, 1, 1)]\n"
              "void main(uint3 id : SV_DispatchThreadID) { img[id.xy] = 1.0; }\n")
    [result] = compile_many([CompileRequest(source, "HLSL")])
    assert result.compiler.kind == SHADERC and is_spirv(result.spirv)


def test_an_explicit_glslc_setting_wins(reference_glslc):
    result = one("#version 460\nlayout(local_size_x = 1) in;\nvoid main() { }\n",
                 glslc=shutil.which("glslc"))
    assert result.compiler.kind == SHADERC


def test_the_cache_keeps_each_compilers_results_apart(reference_glslc, monkeypatch, tmp_path):
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(tmp_path / "cache"))
    source = "#version 460\nlayout(local_size_x = 2) in;\nvoid main() { }\n"
    first = one(source)
    assert first.compiler.kind == REFERENCE and not first.cached
    assert one(source).cached
    monkeypatch.setenv(REFERENCE_ENV, "")
    other = one(source)
    assert other.compiler.kind == SHADERC and not other.cached  # not the reference's entry
    assert other.compiler.identity != first.compiler.identity


def test_many_shaders_compile_in_parallel_each_to_its_own_result(reference_glslc):
    sources = [f"#version 460\nlayout(local_size_x = {n}) in;\nvoid main() {{ }}\n"
               for n in range(1, 6)] + [SYNTAX_ERROR]
    results = compile_many([CompileRequest(s, "GLSL") for s in sources],
                           CompileOptions(cache=False))
    assert [r.ok for r in results] == [True] * 5 + [False]
    assert all(r.compiler.kind == REFERENCE for r in results)
    # each module carries its own local size: results were not swapped between processes
    for n, result in enumerate(results[:5], start=1):
        words = [int.from_bytes(result.spirv[i:i + 4], "little")
                 for i in range(0, len(result.spirv), 4)]
        assert any(words[i] == (6 << 16 | 16) and words[i + 2] == 17 and words[i + 3] == n
                   for i in range(5, len(words) - 3))


def test_compile_verbose_names_the_compiler(reference_glslc, tmp_path, capsys):
    out = tmp_path / "out.spv"
    assert main(["compile", "-v", str(TENSOR_ADD), "-o", str(out)]) == 0
    assert f"compiled by {REFERENCE}, glslang vulkan-sdk-" in capsys.readouterr().err


def fake_reference(tmp_path, monkeypatch, body: str) -> None:
    """A stand-in for the scenario runner's glslc: its --version, then ``body``."""
    script = tmp_path / "fake-glslc"
    script.write_text("#!/bin/sh\n"
                      'if [ "$1" = --version ]; then echo \'{"dependencies": '
                      '["glslang=vulkan-sdk-9.9.9.0-0-gabc1234"]}\'; exit 0; fi\n' + body)
    script.chmod(0o755)
    monkeypatch.setenv(REFERENCE_ENV, str(script))


def test_a_crashing_reference_compiler_is_reported_and_not_cached(tmp_path, monkeypatch):
    fake_reference(tmp_path, monkeypatch, "kill -SEGV $$\n")
    result = one("void main() { }\n")
    assert [d.code for d in result.diagnostics] == ["VKS911"]
    assert "signal 11" in result.diagnostics[0].message
    assert result.compiler.kind == REFERENCE
    assert not one("void main() { }\n").cached


def test_option_errors_of_the_reference_compiler_are_config_errors(tmp_path, monkeypatch):
    fake_reference(tmp_path, monkeypatch,
                   "echo '[ERROR]:Too few arguments for --build-opts' >&2\nexit 255\n")
    [diag] = one("void main() { }\n").diagnostics
    assert diag.code == "VKS915" and "Too few arguments" in diag.message


def test_the_version_named_is_the_compilers_own(reference_glslc, tmp_path, monkeypatch,
                                                capsys):
    fake_reference(tmp_path, monkeypatch, f'exec "{reference_glslc}" "$@"\n')
    shader = tmp_path / "s.comp"
    shader.write_text("layout(local_size_x = 1) in;\nvoid main() { }\n")
    assert main(["compile", "-v", str(shader), "-o", str(tmp_path / "o.spv")]) == 0
    assert "reference glslc (scenario-runner), glslang vulkan-sdk-9.9.9.0" in \
        capsys.readouterr().err
