"""Inputs that once ended in a traceback end in a diagnostic (issue #14, items 2 and 7)."""

from __future__ import annotations

import json
import shutil

import pytest
from hostile_helpers import run_cli, text

from tosa_vkshader.compile.compiler import REFERENCE_ENV, locate_reference

GOOD = ('{"entry_point": "main", "workgroup_sizes": [1, 1, 1], '
        '"input_0_binding": 0, "input_0_descriptorset": 0, '
        '"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", '
        '"input_0_vkformat": "VK_FORMAT_R32_SFLOAT", '
        '"output_0_binding": 1, "output_0_descriptorset": 0, '
        '"output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", '
        '"output_0_vkformat": "VK_FORMAT_R32_SFLOAT"}')


def _no_traceback(result, *codes: int) -> str:
    out = text(result)
    assert result.returncode in codes, out
    assert "Traceback" not in out
    return out


@pytest.mark.parametrize("command", ["reflect", "emit"])
def test_deeply_nested_json_is_refused_by_reflect_and_emit(tmp_path, command):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    argv = ["emit", "mlir", str(path)] if command == "emit" else ["reflect", str(path)]
    out = _no_traceback(run_cli(*argv), 1, 2)
    assert "nests deeper than 64 levels" in out


@pytest.mark.parametrize("config,message", [
    ("tool = 5  # settings for tosa-vkshader below\n", "`tool` must be a table"),
    ('[tool.tosa-vkshader]\ninclude-dirs = ["a\\u0000b"]\n', "contains a NUL byte"),
    ('[tool.tosa-vkshader]\nglslc = "gl\\u0000slc"\n', "contains a NUL byte"),
    ("[tool.tosa-vkshader]\ncompile-timeout = nan\n", "positive number of seconds"),
    ("[tool.tosa-vkshader]\ncompile-memory-limit = -1\n", "must be a positive integer"),
])
def test_unusable_configuration_is_a_usage_error(tmp_path, config, message):
    (tmp_path / "pyproject.toml").write_text(config)
    (tmp_path / "op.json").write_text(GOOD)
    out = _no_traceback(run_cli("check", "op.json", cwd=tmp_path), 2)
    assert "VKS901" in out and message in out


def test_huge_workgroup_sizes_are_errors():
    from tosa_vkshader import validate

    report = validate('{"entry_point": "main", "workgroup_sizes": [1e29, 1, 1]}')
    assert any(d.code == "VKS202" and d.severity.label == "error" for d in report.diagnostics)


@pytest.mark.parametrize("dims,code", [("9" * 5000 + "x4", "VKS615"),
                                       ("4294967296x4", "VKS616")])
def test_absurd_tensor_dimensions_in_emit_are_diagnostics(tmp_path, dims, code):
    path = tmp_path / "op.json"
    path.write_text(GOOD)
    out_file = tmp_path / "op.tosa"
    t = f"tensor<{dims}xf32>"
    out = _no_traceback(run_cli("emit", "tosa", "--operands", t, "--results", t,
                                "-o", str(out_file), str(path)), 1)
    assert code in out
    assert not out_file.exists()


def test_an_mlir_model_with_an_absurd_dimension_is_checked(tmp_path):
    path = tmp_path / "model.mlir"
    t = f"tensor<{'9' * 5000}xf32>"
    attrs = json.dumps(json.loads(GOOD)).replace('"', '\\"')
    path.write_text(
        f"func.func @main(%arg0: {t}) -> {t} {{\n"
        f'  %0 = tosa.custom %arg0 {{domain_name = "com.arm.VulkanCustomShader", '
        f'operator_name = "op", implementation_attrs = "{attrs}"}} : ({t}) -> {t}\n'
        f"  return %0 : {t}\n}}\n")
    _no_traceback(run_cli("check", str(path)), 0, 1)


@pytest.mark.skipif(shutil.which("glslc") is None, reason="needs glslc")
@pytest.mark.parametrize("compiler", ["shaderc", "reference"])
def test_a_macro_bomb_ends_at_the_memory_limit_with_a_diagnostic(tmp_path, monkeypatch,
                                                                 compiler):
    # Each level repeats the one below 16 times: the argument of F expands to 16**9
    # tokens, which glslc holds in memory (gigabytes) before it could complain. Inside
    # `#if 1` the count before compiling (VKS309, tests/test_compile_limits.py) leaves it
    # to the compiler, whose memory limit is what this test is about.
    lines = ["#version 450", "layout(local_size_x = 1) in;", "#if 1", "#define F(a) a",
             "#define L0 " + "+".join(["1"] * 16)]
    lines += [f"#define L{i} " + "+".join([f"L{i - 1}"] * 16) for i in range(1, 9)]
    lines += ["#endif", "void main() { int v = F(L8); }"]
    (tmp_path / "bomb.comp").write_text("\n".join(lines) + "\n")
    (tmp_path / "pyproject.toml").write_text(
        "[tool.tosa-vkshader]\ncompile-memory-limit = 268435456\ncompile-timeout = 600\n")
    env = {}
    if compiler == "reference":  # the scenario-runner wheel's glslc, run per file
        monkeypatch.delenv(REFERENCE_ENV)
        found = locate_reference()
        if found is None:
            pytest.skip("the scenario-runner wheel (with its glslc) is not installed")
        env[REFERENCE_ENV] = found
    result = run_cli("compile", "bomb.comp", "-o", "bomb.spv", "--no-cache",
                     cwd=tmp_path, env=env)
    out = _no_traceback(result, 1)
    assert "VKS942" in out and "memory limit of 256 MiB" in out
    assert not (tmp_path / "bomb.spv").exists()
