"""The compile backend through its public entry point, compile_many, with the real glslc."""

from __future__ import annotations

import subprocess
import time

import pytest

from tosa_vkshader.compile import (
    CompileOptions,
    CompileRequest,
    compile_many,
    compiler_info,
    process,
)
from tosa_vkshader.diagnostics import Severity

from compile_helpers import Glslc, codes, has_capability, is_spirv, spirv_words

SPEC_EXAMPLE = "void main() { }"  # the spec's GLSL example: no #version, no local size
HLSL_PLACEHOLDER = "[numthreads(8, 8, 1)]\nvoid CSMain() {}"
GOOD = "#version 460\nlayout(local_size_x = 4) in;\nvoid main() {{ float v = {0}.0; }}\n"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def glslc(tmp_path):
    return Glslc(tmp_path / "bin")


def one(source, language="GLSL", options=None, **kw):
    return compile_many([CompileRequest(source, language, **kw)], options)[0]


def test_spec_example_compiles_like_the_reference_runtime():
    result = one(SPEC_EXAMPLE)
    assert result.diagnostics == []
    assert is_spirv(result.spirv)
    assert spirv_words(result.spirv)[1] == 0x00010600  # SPIR-V 1.6 for Vulkan 1.3


@pytest.mark.parametrize("source,language,declared", [
    (SPEC_EXAMPLE, "GLSL", False),
    ("// layout(local_size_x = 8) in;\nvoid main() {}", "GLSL", False),
    ("layout(local_size_x = 8) in;\nvoid main() {}", "GLSL", True),
    ("layout(local_size_x_id = 0) in;\nvoid main() {}", "GLSL", True),
    (HLSL_PLACEHOLDER, "HLSL", True),
    ("void CSMain() {}", "HLSL", False),
])
def test_results_say_whether_the_source_states_a_local_size(source, language, declared):
    result = one(source, language, entry_point="CSMain" if language == "HLSL" else "main")
    assert result.declares_local_size is declared


def test_injected_version_does_not_shift_user_lines():
    result = one("void main() {\n  int x = ;\n}\n")
    [diag] = result.diagnostics
    assert (diag.code, diag.pointer) == ("VKS300", "/shader_code")
    assert (diag.inner.line, diag.inner.column) == (2, 11)  # the ';'
    assert result.spirv is None


def test_explicit_version_lines_are_reported_as_written():
    result = one("#version 450\n\nvoid main() {\n  float y = undefinedThing;\n}\n")
    [diag] = result.diagnostics
    assert (diag.inner.line, diag.inner.column) == (4, 13)
    assert "undefinedThing" in diag.message


def test_warnings_are_diagnostics_and_keep_the_spirv():
    result = one("#version 460\n#extension GL_EXT_no_such_thing : enable\nvoid main() {}\n")
    [diag] = result.diagnostics
    assert (diag.code, diag.severity) == ("VKS301", Severity.WARNING)
    assert (diag.inner.line, diag.inner.column) == (2, 1)
    assert is_spirv(result.spirv)


def test_too_old_a_version_for_compute_says_what_to_write():
    result = one("#version 330\nvoid main() {}\n")
    assert set(codes(result)) == {"VKS300"}
    assert "#version 460" in result.diagnostics[0].hint


def test_glsl_entry_point_other_than_main_is_a_diagnostic():
    result = one(SPEC_EXAMPLE, entry_point="compute")
    assert codes(result) == ["VKS302"]
    assert result.diagnostics[0].pointer == "/entry_point"
    assert result.spirv is None  # SPIR-V only for shaders without errors


HLSL = """[[vk::binding(0, 0)]] RWTexture2D<float4> img;
[numthreads(8, 8, 1)]
void CSMain(uint3 id : SV_DispatchThreadID)
{
    half4 v = (half4)img[id.xy];
    img[id.xy] = (float4)(v * (half)2.0);
}
"""


def test_hlsl_uses_the_entry_point_and_16_bit_types():
    result = one(HLSL, "HLSL", entry_point="CSMain")
    assert result.diagnostics == []
    assert b"CSMain\0" in result.spirv
    assert has_capability(result.spirv, 9)  # Float16: half stayed 16-bit


def test_mixed_languages_in_one_batch_keep_their_own_entry_points(glslc):
    results = compile_many([CompileRequest(HLSL, "HLSL", entry_point="CSMain"),
                            CompileRequest(SPEC_EXAMPLE, "GLSL")],
                           CompileOptions(glslc=str(glslc.path)))
    # one process, or one per SPIR-V version: glslang < 12.1 compiles HLSL for SPIR-V 1.3
    old = compiler_info(str(glslc.path), 10).glslang_version < (12, 1, 0)
    assert len(glslc.compile_runs()) == (2 if old else 1)
    assert b"CSMain\0" in results[0].spirv
    assert b"main\0" in results[1].spirv and b"CSMain" not in results[1].spirv


def test_hlsl_entry_point_that_does_not_exist_gives_no_spirv():
    # glslc only warns here and emits an empty function of that name.
    result = one(HLSL, "HLSL", entry_point="csmain")
    assert codes(result) == ["VKS307"]
    assert result.diagnostics[0].pointer == "/entry_point"
    assert result.spirv is None


def test_many_sources_compile_in_one_process_and_keep_their_own_errors(glslc):
    sources = [GOOD.format(i) for i in range(20)]
    sources[3] = "void main() {\n\n  int x = ;\n}\n"
    sources[11] = "#version 460\nvoid main() {\n  float f = missing;\n}\n"
    results = compile_many([CompileRequest(s, "GLSL") for s in sources],
                           CompileOptions(glslc=str(glslc.path)))
    assert len(glslc.compile_runs()) == 1
    for i, result in enumerate(results):
        if i in (3, 11):
            assert result.spirv is None and codes(result) == ["VKS300"]
        else:
            assert is_spirv(result.spirv) and result.diagnostics == [], i
    assert results[3].diagnostics[0].inner.line == 3
    assert results[11].diagnostics[0].inner.line == 3
    assert len({r.spirv for r in results if r.spirv}) == 18  # each its own module


def test_messages_without_a_file_name_are_still_attributed(glslc):
    # glslang < 12.1 fails HLSL storage buffers for SPIR-V 1.6 with a message that names
    # no file ("shaderc: internal error: ..."); with two such inputs only a retry can tell.
    buffer_shader = ("[[vk::binding(0, 0)]] RWStructuredBuffer<float> b;\n[numthreads(8, 1, 1)]\n"
                     "void main(uint3 id : SV_DispatchThreadID) { b[id.x] = {0}.0; }\n")
    requests = [CompileRequest(buffer_shader.replace("{0}", str(i)), "HLSL") for i in range(2)]
    requests.insert(1, CompileRequest(GOOD.format(7), "GLSL"))
    results = compile_many(requests, CompileOptions(glslc=str(glslc.path), target_spv="spv1.6"))
    assert is_spirv(results[1].spirv)
    version = compiler_info(str(glslc.path), 10).glslang_version
    for result in (results[0], results[2]):
        if version < (12, 1, 0):
            assert codes(result) == ["VKS306"] and "BufferBlock" in result.diagnostics[0].message
            assert "newer glslc" in result.diagnostics[0].hint
        else:
            assert is_spirv(result.spirv) and result.diagnostics == []


@pytest.mark.parametrize("marker,code", [("CRASH_ME", "VKS911"), ("HANG_ME", "VKS912"),
                                         ("FLOOD_ME", "VKS913")])
def test_a_broken_compiler_costs_only_the_shader_that_broke_it(tmp_path, marker, code,
                                                               monkeypatch):
    broken = Glslc(tmp_path / "broken", misbehave=True)
    hanging = broken.path.with_name("glslc.hanging")  # the wrapper's "I hang now" signal

    def time_out_when_hanging(proc: subprocess.Popen, timeout: float) -> None:
        # No race with the clock on a loaded machine: a well-behaved batch is waited for
        # however long it takes, a hanging one times out the moment it starts to hang.
        while proc.poll() is None:
            if hanging.exists():
                hanging.unlink()
                raise subprocess.TimeoutExpired(proc.args, timeout)
            time.sleep(0.01)

    monkeypatch.setattr(process, "wait_for", time_out_when_hanging)
    sources = [GOOD.format(i) for i in range(4)]
    sources[1] = f"// {marker}\n" + sources[1]
    results = compile_many([CompileRequest(s, "GLSL") for s in sources],
                           CompileOptions(glslc=str(broken.path), cache=False, timeout=10.0))
    assert codes(results[1]) == [code] and results[1].spirv is None
    assert all(is_spirv(results[i].spirv) and results[i].diagnostics == [] for i in (0, 2, 3))
    # This wrapper fails the whole batch (a real glslc finishes the inputs before the bad
    # one): [0 1 2 3] -> [0] + [1 2 3] -> [1] + [2 3]. Bounded, never one per shader blindly.
    assert len(broken.compile_runs()) == 5


def test_missing_compiler_says_how_to_install_and_keeps_other_findings():
    result = one(SPEC_EXAMPLE, options=CompileOptions(glslc="/nonexistent/glslc"),
                 entry_point="compute")
    assert codes(result) == ["VKS302", "VKS910"]
    assert "apt-get install glslc" in result.diagnostics[1].hint
    assert result.spirv is None


def test_compiler_is_found_on_path_and_under_vulkan_sdk(tmp_path, monkeypatch, glslc):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("VULKAN_SDK", raising=False)
    assert codes(one(SPEC_EXAMPLE)) == ["VKS910"]
    sdk = tmp_path / "sdk"
    (sdk / "bin").mkdir(parents=True)
    (sdk / "bin" / "glslc").symlink_to(glslc.path)
    monkeypatch.setenv("VULKAN_SDK", str(sdk))
    assert is_spirv(one(SPEC_EXAMPLE).spirv)
    monkeypatch.setenv("PATH", str(glslc.path.parent))
    monkeypatch.delenv("VULKAN_SDK")
    assert is_spirv(one(SPEC_EXAMPLE).spirv)


def test_compiler_version_is_recorded():
    info = compiler_info(None, 10)
    assert info.path.endswith("glslc")
    assert "shaderc" in info.version_text and info.glslang_version is not None


def test_target_env_rejected_by_glslc_is_one_config_diagnostic():
    result = one(SPEC_EXAMPLE, options=CompileOptions(target_env="vulkan9.9"))
    assert codes(result) == ["VKS915"]
    assert "vulkan9.9" in result.diagnostics[0].message


def test_macros_from_options_and_request(glslc):
    source = ("#version 460\n#if !defined(SCALE) || !defined(FAST)\n#error macros missing\n"
              "#endif\nvoid main() { float s = SCALE; }\n")
    options = CompileOptions(glslc=str(glslc.path), macros=(("SCALE", "2.0"),))
    assert is_spirv(compile_many([CompileRequest(source, "GLSL", macros=("FAST",))],
                                 options)[0].spirv)
    missing = compile_many([CompileRequest(source, "GLSL")], options)[0]
    assert codes(missing) == ["VKS300"] and missing.diagnostics[0].inner.line == 3


@pytest.mark.parametrize("macros", [(("X", 'a\n#include "/etc/passwd"'),), (("1X", "1"),),
                                    (("X", "a\rb"),), (("X", "a\\"),)])
def test_macros_that_could_inject_directives_are_refused(glslc, macros):
    result = one(SPEC_EXAMPLE, options=CompileOptions(glslc=str(glslc.path), macros=macros))
    assert codes(result) == ["VKS915"] and result.spirv is None
    assert glslc.compile_runs() == []


def test_arm_tensors_on_an_old_compiler_is_one_clear_diagnostic():
    source = ("#version 460\n#extension GL_ARM_tensors : require\nlayout(local_size_x = 1) in;\n"
              "layout(set = 0, binding = 0) uniform tensorARM<float, 2> t;\nvoid main() { }\n")
    version = compiler_info(None, 10).glslang_version
    result = one(source)
    if version >= (16, 0, 0):
        assert "VKS305" not in codes(result)
        return
    [diag] = result.diagnostics
    assert diag.code == "VKS305" and (diag.inner.line, diag.inner.column) == (2, 1)
    assert "16.0.0" in diag.message and ".".join(map(str, version)) in diag.message


def test_a_flood_of_errors_from_one_shader_is_cut_short():
    body = "".join(f"  float a{i} = u{i};\n" for i in range(80))
    result = one(f"#version 460\nvoid main() {{\n{body}}}\n")
    assert codes(result).count("VKS300") == 50
    assert codes(result)[-1] == "VKS913"
    assert "30 further" in result.diagnostics[-1].message


def test_very_large_runs_are_split_into_a_few_processes(glslc):
    sources = [f"void main() {{ float v = {i}.0; }}" for i in range(300)]
    results = compile_many([CompileRequest(s, "GLSL") for s in sources],
                           CompileOptions(glslc=str(glslc.path)))
    assert all(is_spirv(r.spirv) for r in results)
    assert len(glslc.compile_runs()) == 2  # 256 + 44


def test_identical_sources_are_compiled_once(glslc):
    results = compile_many([CompileRequest(SPEC_EXAMPLE, "GLSL")] * 3,
                           CompileOptions(glslc=str(glslc.path)))
    assert len({r.spirv for r in results}) == 1 and is_spirv(results[0].spirv)
    assert glslc.compile_runs()[0].count(".glsl") == 1


def test_request_rejects_unknown_language():
    with pytest.raises(ValueError):
        CompileRequest(SPEC_EXAMPLE, "SPIR-V")
