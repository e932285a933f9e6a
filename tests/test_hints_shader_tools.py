"""Hints of the shader stage's own rules (VKS3xx, VKS40x) and of its tools (VKS91x,
VKS92x, VKS942): compile errors, includes, the compilers, the SPIR-V reader, spirv-val;
each where it fires and, where the hint is a change to the op or the settings, the finding
gone after it."""

from __future__ import annotations

import base64
import json

import pytest
from spirv_helpers import header, inst, module_bytes, to_bytes, words_of

from tosa_vkshader import Options, validate
from tosa_vkshader.cli import main
from tosa_vkshader.compile.compiler import REFERENCE_ENV, locate_reference
from tosa_vkshader.spirv import validate as spirv_val
from tosa_vkshader.spirv.grammar import OP

from compile_helpers import Glslc
from conftest import FIXTURES
from hint_cases import after_fix, hinted

GLSL = json.loads((FIXTURES / "glsl" / "valid" / "buffer-scale.json").read_text())
SOURCE = GLSL["shader_code"]
SPIRV = json.loads((FIXTURES / "spirv" / "valid" / "copy_f32.json").read_text())


def _glsl(old: str, new: str, **changes) -> dict:
    assert old in SOURCE
    return {**GLSL, "shader_code": SOURCE.replace(old, new), **changes}


def _spirv(data: bytes) -> dict:
    return {**SPIRV, "shader_code": base64.b64encode(data).decode()}


@pytest.mark.parametrize(("old", "new", "hint"), [
    ("#version 460", "#version 150",
     "write `#version 460` (what the reference runtime assumes when the shader has none) or "
     "remove the #version line"),
    ("#version 460", "#version 420", "compute shaders need #version 430 or newer; the "
                                     "default is 460"),
    ("void main()", "void kernel()", "a GLSL compute shader needs `void main()`"),
], ids=["version-150", "version-420", "no-main"])
def test_compile_errors_with_a_known_cause(old, new, hint):
    before = validate(_glsl(old, new))
    found = [d for d in before.diagnostics if d.code == "VKS300" and d.hint]
    hinted(found, "VKS300", hint=hint)
    after_fix(before, validate(GLSL), "VKS300", None)


def test_a_glsl_entry_point_other_than_main():
    before = validate({**GLSL, "entry_point": "compute"})
    hinted(before.diagnostics, "VKS302", hint='set "entry_point": "main"')
    after_fix(before, validate(GLSL), "VKS302", None)


INCLUDE = _glsl("void main() {", '#extension GL_GOOGLE_include_directive : require\n'
                '#include "scale.glsl"\nvoid main() {')
INCLUDE["shader_code"] = INCLUDE["shader_code"].replace("* 2.0", "* SCALE")


def test_includes_need_to_be_allowed(tmp_path):
    (tmp_path / "scale.glsl").write_text("#define SCALE 2.0\n")
    before = validate(INCLUDE)
    hinted(before.diagnostics, "VKS303",
           hint="inline the included code (the reference runtime compiles shader_code "
                "alone), or embed SPIR-V: `tosa-vkshader new SHADER -I DIR` compiles the "
                "includes")
    inlined = {**INCLUDE, "shader_code": INCLUDE["shader_code"].replace(
        '#include "scale.glsl"', (tmp_path / "scale.glsl").read_text())}
    after_fix(before, validate(inlined), "VKS303", None)


@pytest.mark.parametrize(("directive", "hint"), [
    ('#define NAME "scale.glsl"\n#include NAME', 'write the path itself, e.g. #include '
                                                 '"common.glsl"'),
    ('#include "../outside/scale.glsl"', "name a file relative to one of `include-dirs`"),
], ids=["macro", "dot-dot"])
def test_includes_that_are_refused(tmp_path, directive, hint):
    (tmp_path / "scale.glsl").write_text("#define SCALE 2.0\n")
    allowed = Options(allow_includes=True, include_dirs=(str(tmp_path),))
    op = {**INCLUDE, "shader_code": INCLUDE["shader_code"].replace('#include "scale.glsl"',
                                                                   directive)}
    before = validate(op, allowed)
    hinted(before.diagnostics, "VKS304", hint=hint)
    # (where the checker may read; that the runtime reads no include at all is VKS312)
    after_fix(before, validate(INCLUDE, allowed.with_overrides(ignore=("VKS312",))),
              "VKS304", None)


TENSORS = ("#version 460\n#extension GL_ARM_tensors : require\nlayout(local_size_x = 1) in;\n"
           "layout(set = 0, binding = 0) uniform tensorARM<float, 1> t;\nvoid main() { }\n")


def test_tensors_on_a_compiler_without_them_name_the_compiler_that_has_them():
    op = {"entry_point": "main", "workgroup_sizes": [1, 1, 1], "shader_language": "GLSL",
          "shader_code": TENSORS}
    before = validate(op)
    if "VKS305" not in before.codes:
        pytest.skip("this glslc knows GL_ARM_tensors")  # (glslang 16 or newer)
    hinted(before.diagnostics, "VKS305",
           hint="install a glslc built on glslang 16.0.0 or newer (a recent Vulkan SDK) and "
                "point `glslc` in [tool.tosa-vkshader] at it")
    reference = locate_reference()
    if reference is not None:  # the scenario runner's glslc is such a compiler
        after_fix(before, validate(op, Options(glslc=reference)), "VKS305", None)


HLSL_BUFFER = """[[vk::binding(0, 0)]] RWStructuredBuffer<float> Data;
[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) { Data[id.x] = Data[id.x] * 2.0; }
"""


def _hlsl(source: str, entry: str = "CSMain") -> dict:
    texel = "RWBuffer" in source
    return {"entry_point": entry, "workgroup_sizes": [1, 1, 1], "shader_language": "HLSL",
            "shader_code": source, "output_0_binding": 0, "output_0_descriptorset": 0,
            "output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER" if texel
            else "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "output_0_vkformat": "VK_FORMAT_R32_SFLOAT"}


def test_hlsl_storage_buffers_for_spirv_1_6_on_an_old_glslang():
    """HLSL is compiled for SPIR-V 1.3 by glslang before 12.1 (tests/test_thirdparty_hlsl.py);
    asked for SPIR-V 1.6 it fails in its optimizer."""
    from tosa_vkshader.compile import CompileOptions, CompileRequest, compile_many
    from tosa_vkshader.compile.compiler import compiler_info

    request = CompileRequest(HLSL_BUFFER, "HLSL", entry_point="CSMain")
    version = compiler_info(None, 10).glslang_version
    [before] = compile_many([request], CompileOptions(target_spv="spv1.6"))
    if version is not None and version >= (12, 1, 0):
        assert before.ok
        return
    hinted(before.diagnostics, "VKS306",
           hint="glslang older than 12.1 decorates HLSL storage buffers with BufferBlock, "
                "which SPIR-V 1.4+ forbids: leave `target_spv` unset (HLSL is then compiled "
                "for SPIR-V 1.3), or install a newer glslc (a recent Vulkan SDK) and point "
                "`glslc` in [tool.tosa-vkshader] at it")
    [after] = compile_many([request], CompileOptions())
    assert after.ok and after.diagnostics == []


def test_an_hlsl_entry_point_that_is_not_there_names_the_numthreads_function():
    source = HLSL_BUFFER.replace("RWStructuredBuffer", "RWBuffer")
    before = validate(_hlsl(source, entry="main"))
    hinted(before.diagnostics, "VKS307", hint='set entry_point to "CSMain"')
    after_fix(before, validate(_hlsl(source)), "VKS307", None)


def test_a_macro_value_the_reference_compiler_cannot_carry(reference_glslc):
    op = _glsl("* 2.0", "* SCALE")
    before = validate(op, Options(macros=(("SCALE", "2.0 * 1.0"),)))
    hinted(before.diagnostics, "VKS308", hint="write the value without spaces, e.g. `(2*3)`")
    # (the fixed op compiles, and then VKS310 says the runtime will not have SCALE)
    after_fix(before, validate(op, Options(macros=(("SCALE", "(2.0*1.0)"),),
                                           ignore=("VKS310",))), "VKS308", None)


def test_includes_from_two_folders_for_the_reference_compiler(reference_glslc, tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (first / "scale.glsl").write_text("#define SCALE 2.0\n")
    two = Options(allow_includes=True, include_dirs=(str(first), str(second)))
    before = validate(INCLUDE, two)
    hinted(before.diagnostics, "VKS308",
           hint="keep the shared shader headers in one `include-dirs` folder")
    one = Options(allow_includes=True, include_dirs=(str(first),), ignore=("VKS312",))
    after_fix(before, validate(INCLUDE, one), "VKS308", None)  # (VKS312: see above)


def test_a_compiler_that_is_not_there(tmp_path):
    before = validate(GLSL, Options(glslc=str(tmp_path / "glslc")))
    hinted(before.diagnostics, "VKS910",
           hint="install it with `apt-get install glslc` (Debian/Ubuntu) or the Vulkan SDK "
                "(https://vulkan.lunarg.com), or set `glslc` in [tool.tosa-vkshader] to its "
                "path")
    after_fix(before, validate(GLSL), "VKS910", None)


def test_a_compile_that_takes_too_long(tmp_path):
    slow = Glslc(tmp_path, misbehave=True)
    op = _glsl("void main() {", "// HANG_ME\nvoid main() {")
    before = validate(op, Options(glslc=str(slow.path), compile_timeout=0.5, cache=False))
    hinted(before.diagnostics, "VKS912",
           hint="raise `compile-timeout` in [tool.tosa-vkshader] if the shader is really "
                "that large")


def test_a_compile_that_takes_too_long_on_the_reference_compiler(tmp_path, monkeypatch):
    script = tmp_path / "fake-glslc"
    script.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo '{\"dependencies\": "
                      "[\"glslang=vulkan-sdk-9.9.9.0-0-gabc1234\"]}'; exit 0; fi\nsleep 30\n")
    script.chmod(0o755)
    monkeypatch.setenv(REFERENCE_ENV, str(script))
    before = validate(GLSL, Options(compile_timeout=0.5, cache=False))
    hinted(before.diagnostics, "VKS912",
           hint="raise `compile-timeout` in [tool.tosa-vkshader] if the shader is really "
                "that large")


def test_macros_that_double_forty_times():
    doubling = "".join(f"#define A{i} A{i - 1} A{i - 1}\n" for i in range(1, 41))
    op = _glsl("void main() {", "#define A0 x += 1.0;\n" + doubling
               + "void main() { float x = 0.0; A40")
    hinted(validate(op).diagnostics, "VKS309", hint="write a loop instead of doubling macros")


def test_a_compile_cache_that_cannot_be_written(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(blocker))
    before = validate(_glsl("* 2.0", "* 3.0"))
    hint = "set TOSA_VKSHADER_CACHE_DIR to a writable directory or use --no-cache"
    hinted(before.diagnostics, "VKS914", hint=hint)
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(tmp_path / "cache"))
    after_fix(before, validate(_glsl("* 2.0", "* 3.0")), "VKS914", None)


def test_a_macro_value_over_two_lines():
    op = _glsl("* 2.0", "* SCALE")
    before = validate(op, Options(macros=(("SCALE", "2.0\n#define X"),)))
    hinted(before.diagnostics, "VKS915", hint="macro values must be one line")
    after_fix(before, validate(op, Options(macros=(("SCALE", "2.0"),), ignore=("VKS310",))),
              "VKS915", None)


def test_a_target_glslc_refuses():
    before = validate(GLSL, Options(target_env="vulkan9.9"))
    hinted(before.diagnostics, "VKS915",
           hint="check `target-env` and the other compile settings")


def test_the_reference_compiler_refuses_its_options(tmp_path, monkeypatch):
    script = tmp_path / "fake-glslc"
    script.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo '{\"dependencies\": "
                      "[\"glslang=vulkan-sdk-9.9.9.0-0-gabc1234\"]}'; exit 0; fi\n"
                      "echo '[ERROR]:Too few arguments for --build-opts' >&2\nexit 255\n")
    script.chmod(0o755)
    monkeypatch.setenv(REFERENCE_ENV, str(script))
    hinted(validate(GLSL, Options(cache=False)).diagnostics, "VKS915",
           hint="check the macros and include directories in [tool.tosa-vkshader]")


# (inside `#if 1`: the count before compiling, VKS309, leaves it to the compiler)
BOMB = ("#if 1\n#define L0 " + "+".join(["1"] * 16) + "\n"
        + "".join(f"#define L{i} " + "+".join([f"L{i - 1}"] * 16) + "\n" for i in range(1, 9))
        + "#endif\n")


def test_a_compile_that_runs_out_of_memory():
    op = _glsl("void main() {", BOMB + "void main() {\n    int v = L8;")
    limit = Options(compile_memory_limit=256 * 1024 * 1024, compile_timeout=600, cache=False)
    hinted(validate(op, limit).diagnostics, "VKS942",
           hint="a macro that expands to millions of tokens does this; if the shader really "
                "needs more, raise `compile-memory-limit` in [tool.tosa-vkshader]")


# -- the SPIR-V reader and spirv-val -----------------------------------------------------

def test_a_module_for_a_newer_spirv():
    words = words_of(module_bytes("copy_f32"))
    words[1] = 0x00010700  # SPIR-V 1.7
    before = validate(_spirv(to_bytes(words)))
    hinted(before.diagnostics, "VKS400", hint="compile for Vulkan 1.3 (SPIR-V 1.6) or older")
    after_fix(before, validate(SPIRV), "VKS400", None)


@pytest.mark.parametrize(("data", "hint"), [
    (b"#version 460\nvoid main() { }\n".ljust(40),  # (a multiple of 4 bytes)
     "give the compiled .spv module (glslc -o), not the shader source"),
    (module_bytes("copy_f32")[:-2], "the module was cut short: produce it again with the "
                                    "compiler"),
], ids=["source-text", "cut"])
def test_a_file_that_is_not_a_module(tmp_path, capsys, data, hint):
    path = tmp_path / "kernel.spv"
    path.write_bytes(data)
    assert main(["reflect", str(path)]) != 0
    lines = capsys.readouterr().err.splitlines()
    found = [i for i, line in enumerate(lines) if "error[VKS400]" in line]
    assert found and lines[found[0] + 1] == f"  = help: {hint}"
    path.write_bytes(module_bytes("copy_f32"))
    assert main(["reflect", str(path)]) == 0


def test_a_module_with_ids_beyond_its_bound():
    words = header(bound=10) + inst(OP["OpTypeVoid"], 12)
    hinted(validate(_spirv(to_bytes(words))).diagnostics, "VKS402",
           hint="the module is corrupted or was edited by hand; regenerate it")


def test_a_module_with_a_type_used_before_it_is_declared():
    words = (header() + inst(OP["OpTypeInt"], 2, 32, 0) + inst(OP["OpTypeVector"], 6, 99, 4))
    hinted(validate(_spirv(to_bytes(words))).diagnostics, "VKS403",
           hint="types must be declared before use; a cycle between types is only possible "
                "through OpTypeForwardPointer")


def test_spirv_val_is_not_installed(monkeypatch):
    monkeypatch.setattr(spirv_val, "find_spirv_val", lambda: None)
    hinted(validate(SPIRV).diagnostics, "VKS920", hint=spirv_val.INSTALL_HINT)


def test_spirv_val_set_to_a_path_that_is_not_there(tmp_path, monkeypatch):
    monkeypatch.setenv(spirv_val.ENV_VAR, str(tmp_path / "spirv-val"))
    spirv_val.find_spirv_val.cache_clear()  # (looked up once per process)
    try:
        before = validate(SPIRV, Options(cache=False))
        monkeypatch.delenv(spirv_val.ENV_VAR)
        spirv_val.find_spirv_val.cache_clear()
        hinted(before.diagnostics, "VKS921", hint=spirv_val.INSTALL_HINT)
        after_fix(before, validate(SPIRV, Options(cache=False)), "VKS921", None)
    finally:
        spirv_val.find_spirv_val.cache_clear()


def test_a_target_environment_spirv_val_does_not_know():
    before = validate(SPIRV, Options(target_env="vulkan9"))
    hinted(before.diagnostics, "VKS921",
           hint="set target-env in [tool.tosa-vkshader] to one of vulkan1.0, vulkan1.1, "
                "vulkan1.2, vulkan1.3, vulkan1.4")
    after_fix(before, validate(SPIRV, Options(target_env="vulkan1.3")), "VKS921", None)


SCALAR_VEC3 = """#version 460
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
layout(scalar, set = 0, binding = 0) readonly buffer In { vec3 p[]; };
layout(scalar, set = 0, binding = 1) writeonly buffer Out { vec3 q[]; };
void main() { uint i = gl_GlobalInvocationID.x; q[i] = p[i] * 2.0; }
"""


def test_a_layout_the_runtimes_device_does_not_allow_names_the_way_without_it():
    formats = {f"{d}_0_vkformat": "VK_FORMAT_R32_SFLOAT" for d in ("input", "output")}
    found = validate({**GLSL, **formats, "shader_code": SCALAR_VEC3}).diagnostics
    hinted(found, "VKS404", hint="lay the block out as std430 allows: a `float` array read "
                                 "at `3 * i + k` instead of `vec3`, or `vec4` elements")
    followed = SCALAR_VEC3.replace("vec3 p[]", "float p[]").replace("vec3 q[]", "float q[]") \
        .replace("q[i] = p[i] * 2.0;", "for (uint k = 0u; k < 3u; ++k) "
                                       "q[3u * i + k] = p[3u * i + k] * 2.0;")
    after = validate({**GLSL, **formats, "shader_code": followed}).diagnostics
    assert "VKS404" not in {d.code for d in after}
