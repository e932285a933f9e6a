"""Macros reach the runtime: `new -D` embeds them, and a configured macro the runtime will
not see is a finding (issue 27, item 1).

The reference runtime compiles an op's GLSL itself, with no compiler flags: measured here
on lavapipe, a shader that needs a macro fails in the runner, and one with a fallback
`#define` computes with the fallback.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from toolchain import RunnerRefused, run_raw

from tosa_vkshader.cli import main

pytestmark = pytest.mark.runtime

ADD = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { TestType a[]; };
layout(set = 0, binding = 1) writeonly buffer C { TestType c[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  c[i] = a[i] * SCALE;
}
"""
# The same shader with a fallback for SCALE, as libraries of shaders often have.
FALLBACK = ADD.replace("#version 450\n", "#version 450\n#ifndef SCALE\n#define SCALE 1.0\n"
                                         "#endif\n").replace("TestType", "float")
T = "tensor<256xf32>"


def new(tmp_path, shader: str, *flags: str, name: str = "op.json") -> dict:
    source = tmp_path / "add.comp"
    source.write_text(shader)
    out = tmp_path / name
    assert main(["new", str(source), "--name", "add", "--operands", T, "--results", T,
                 "-o", str(out), *flags]) == 0
    return json.loads(out.read_text())


def mlir(tmp_path, document: dict) -> str:
    path = tmp_path / "op.json"
    path.write_text(json.dumps(document))
    out = tmp_path / "op.mlir"
    assert main(["emit", "mlir", str(path), "--config", str(tmp_path / "none.toml"),
                 "-o", str(out)]) == 0
    return out.read_text()


def test_new_embeds_the_defines_after_version_and_the_op_runs_right(tmp_path, capsys):
    (tmp_path / "none.toml").write_text("[tool.tosa-vkshader]\n")
    document = new(tmp_path, ADD, "-D", "TestType=float", "-D", "SCALE=2.0",
                   "--config", str(tmp_path / "none.toml"))
    code = document["implementation_attrs"]["shader_code"]
    assert code.split("\n")[:3] == ["#version 450", "#define TestType float",
                                    "#define SCALE 2.0"]
    err = capsys.readouterr().err
    assert "info[VKS624]" in err and "`TestType=float`, `SCALE=2.0`" in err
    assert "after line 1 (`#version`)" in err
    # notes about the shader stay at the user's own lines: the local size is on line 2
    assert "add.comp:2:1: info[VKS421]" in err
    assert main(["check", str(tmp_path / "op.json"), "--config",
                 str(tmp_path / "none.toml")]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out
    x = np.linspace(-4, 4, 256, dtype=np.float32)
    [y] = run_raw(mlir(tmp_path, document), [x], tmp_path / "run")  # no flags given
    np.testing.assert_array_equal(y, 2 * x)


def test_without_version_the_defines_come_first(tmp_path, capsys):
    (tmp_path / "none.toml").write_text("[tool.tosa-vkshader]\n")
    document = new(tmp_path, ADD.replace("#version 450\n", ""), "-D", "TestType=float",
                   "-D", "FAST", "-D", "SCALE=2.0", "--config", str(tmp_path / "none.toml"))
    assert document["implementation_attrs"]["shader_code"].startswith(
        "#define TestType float\n#define FAST\n#define SCALE 2.0\nlayout(local_size_x = 64) in;")
    assert "before the first line" in capsys.readouterr().err


def test_embedded_spirv_says_it_holds_the_macros(tmp_path, capsys):
    (tmp_path / "none.toml").write_text("[tool.tosa-vkshader]\n")
    document = new(tmp_path, ADD, "-D", "TestType=float", "-D", "SCALE=3.0",
                   "--embed", "spirv", "--config", str(tmp_path / "none.toml"))
    assert document["implementation_attrs"]["shader_language"] == "SPIR-V"
    assert "compiled with the macros `TestType=float`, `SCALE=3.0`" in capsys.readouterr().err
    x = np.arange(256, dtype=np.float32)
    [y] = run_raw(mlir(tmp_path, document), [x], tmp_path / "run")
    np.testing.assert_array_equal(y, 3 * x)


def test_a_configured_macro_goes_into_what_new_writes(tmp_path):
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.tosa-vkshader]\nmacros = { TestType = "float" }\n')
    document = new(tmp_path, ADD, "-D", "SCALE=2.0", "--config", str(config))
    code = document["implementation_attrs"]["shader_code"]
    assert "#define TestType float\n#define SCALE 2.0\n" in code


def attributes_with(shader: str) -> dict:
    return {"entry_point": "main", "workgroup_sizes": [4, 1, 1], "shader_language": "GLSL",
            "shader_code": shader,
            **{f"{d}_0_{k}": v for d, b in (("input", 0), ("output", 1)) for k, v in (
                ("vkformat", "VK_FORMAT_R32_SFLOAT"),
                ("vkdescriptortype", "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"),
                ("binding", b), ("descriptorset", 0))}}


def module_of(attributes: dict) -> str:
    """The op in a model as a user's exporter writes it (no tosa-vkshader involved)."""
    text = json.dumps(json.dumps(attributes))
    return ('module {\n  func.func @main(%arg0: tensor<256xf32>) -> tensor<256xf32> {\n'
            '    %0 = tosa.custom %arg0 {domain_name = "com.arm.VulkanCustomShader", '
            f'implementation_attrs = {text}, operator_name = "add"}} : '
            '(tensor<256xf32>) -> tensor<256xf32>\n    return %0 : tensor<256xf32>\n  }\n}\n')


def test_a_configured_macro_the_runtime_needs_is_an_error_there_it_fails(tmp_path, capsys):
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.tosa-vkshader]\nmacros = { TestType = "float", SCALE = "2.0", '
                      'UNUSED = "1" }\n')
    op = tmp_path / "op.json"
    op.write_text(json.dumps(attributes_with(ADD), indent=1))
    assert main(["check", str(op), "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "error[VKS310]" in out and "`TestType=float`, `SCALE=2.0`" in out
    assert "UNUSED" not in out  # a macro the shader does not use changes nothing
    assert "syntax error" in out and "(line 3 of `shader_code`)" in out
    # what the runtime does with it: its compiler fails
    (tmp_path / "none.toml").write_text("[tool.tosa-vkshader]\n")
    document = {"domain_name": "com.arm.VulkanCustomShader", "operator_name": "add",
                "inputs": [T], "outputs": [T], "implementation_attrs": attributes_with(ADD)}
    path = tmp_path / "op_object.json"
    path.write_text(json.dumps(document))
    out_mlir = tmp_path / "op.mlir"
    assert main(["emit", "mlir", str(path), "--config", str(config),
                 "--operands", T, "--results", T, "-o", str(out_mlir)]) == 1
    with pytest.raises(RunnerRefused, match="(?i)compil"):
        run_raw(module_of(attributes_with(ADD)), [np.zeros(256, dtype=np.float32)],
                tmp_path / "run")


def test_a_configured_macro_with_a_fallback_is_a_warning_the_runtime_uses_the_fallback(
        tmp_path, capsys):
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.tosa-vkshader]\nmacros = { SCALE = "2.0" }\n')
    op = tmp_path / "op.json"
    op.write_text(json.dumps(attributes_with(FALLBACK)))
    assert main(["check", str(op), "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "warning[VKS310]" in out and "to another module than the one checked" in out
    x = np.arange(256, dtype=np.float32)
    [y] = run_raw(module_of(attributes_with(FALLBACK)), [x], tmp_path / "run")
    np.testing.assert_array_equal(y, x)  # SCALE is the fallback 1.0 there, not 2.0


HEADER = "float scaled(float v) { return v * 2.0 + 1.0; }\n"
INCLUDING = """#version 450
#extension GL_GOOGLE_include_directive : require
#include "scale.glsl"
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer C { float c[]; };
void main() { uint i = gl_GlobalInvocationID.x; c[i] = scaled(a[i]); }
"""


def test_new_embeds_a_shader_that_includes_files_as_spirv_and_it_runs(tmp_path, capsys):
    """The runtime compiles shader_code alone: an `#include` left in it would not
    resolve there (and `check` refuses it), so `new` embeds what it compiled."""
    (tmp_path / "none.toml").write_text("[tool.tosa-vkshader]\n")
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "scale.glsl").write_text(HEADER)
    document = new(tmp_path, INCLUDING, "-I", str(tmp_path / "include"),
                   "--config", str(tmp_path / "none.toml"))
    assert document["implementation_attrs"]["shader_language"] == "SPIR-V"
    err = capsys.readouterr().err
    assert 'add.comp:3:1: info[VKS626] the shader includes `"scale.glsl"`' in err
    assert main(["check", str(tmp_path / "op.json"), "--config",
                 str(tmp_path / "none.toml")]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out
    x = np.linspace(-4, 4, 256, dtype=np.float32)
    [y] = run_raw(mlir(tmp_path, document), [x], tmp_path / "run")
    np.testing.assert_array_equal(y, x * 2 + 1)
    # asked for the source, new refuses: the op would not compile on the runtime
    source = tmp_path / "add.comp"
    assert main(["new", str(source), "-I", str(tmp_path / "include"), "--embed", "source",
                 "--config", str(tmp_path / "none.toml"), "-o",
                 str(tmp_path / "source.json")]) == 1
    assert 'add.comp:3:1: error[VKS627] --embed source: the shader includes `"scale.glsl"`' \
        in capsys.readouterr().err
    assert not (tmp_path / "source.json").exists()


def test_an_include_the_checker_may_read_is_an_error_the_runtime_cannot_compile(
        tmp_path, capsys):
    """With `allow-includes`, the checker's compile resolves `#include`; the runtime
    compiles shader_code alone and fails (VKS312 says so at the directive)."""
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "scale.glsl").write_text(HEADER)
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.tosa-vkshader]\nallow-includes = true\ninclude-dirs = ["include"]\n')
    op = tmp_path / "op.json"
    op.write_text(json.dumps(attributes_with(INCLUDING), indent=1))
    assert main(["check", str(op), "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert 'error[VKS312] `#include "scale.glsl"`: the reference runtime compiles' in out
    assert "(line 3 of `shader_code`)" in out
    # what the runtime does with it: its compiler fails
    with pytest.raises(RunnerRefused, match="(?i)compil"):
        run_raw(module_of(attributes_with(INCLUDING)), [np.zeros(256, dtype=np.float32)],
                tmp_path / "run")
