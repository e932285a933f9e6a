"""Hints of the tool's own rules (VKS9xx): configuration, rule selection, folder walks,
the web endpoint's limit, and `run` (its inputs, the machine, the runner). Each where it
fires and, where following it is a change of settings, inputs or arguments, the problem
gone after it. The runner's failures are a stand-in runner (as in test_run_failures.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import tosa_vkshader
from tosa_vkshader import check_paths, load_options
from tosa_vkshader.cli import main
from tosa_vkshader.codegen import op_from_shader
from tosa_vkshader.config_file import ConfigError
from tosa_vkshader.diagnostics import Severity
from tosa_vkshader.runtime.model import NUMPY_DTYPES

from conftest import ROOT
from hint_cases import hinted, not_reported, printed

EXAMPLE = ROOT / "examples" / "add_sub_f32"
MODEL = EXAMPLE / "model.mlir"
PUSH_EXAMPLE = ROOT / "examples" / "scale_i8_push"
GOOD = np.zeros((1, 256), np.float32)


def _config_problems(tmp_path, table: str) -> list:
    (tmp_path / "pyproject.toml").write_text("[tool.tosa-vkshader]\n" + table + "\n")
    with pytest.raises(ConfigError) as info:
        load_options(tmp_path)
    return info.value.diagnostics


def _configured(tmp_path, table: str) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.tosa-vkshader]\n" + table + "\n")
    load_options(tmp_path)


@pytest.mark.parametrize(("table", "hint", "fixed"), [
    ('workgroup-semantic = "dispatch"', "did you mean `workgroup-semantics`?",
     'workgroup-semantics = "dispatch"'),
    ('workgroup-semantics = "workgroups"',
     'use "dispatch" (the reference runtime, default) or "local-size" (the spec\'s wording)',
     'workgroup-semantics = "local-size"'),
    ("target-device = 3", 'e.g. target-device = ["baseline", "devices/board.json"]',
     'target-device = ["baseline"]'),
], ids=["unknown-option", "semantics", "target-device"])
def test_configuration(tmp_path, table, hint, fixed):
    hinted(_config_problems(tmp_path, table), "VKS901", hint=hint)
    _configured(tmp_path, fixed)


def test_an_option_like_no_other_lists_the_options(tmp_path):
    [problem] = _config_problems(tmp_path, "colour = true")
    assert problem.code == "VKS901" and problem.hint.startswith("known options: ")
    assert "workgroup-semantics" in problem.hint


def test_a_rule_code_that_is_not_one_in_the_configuration(tmp_path):
    hinted(_config_problems(tmp_path, 'ignore = ["VKS43O"]'), "VKS933",
           hint="did you mean `VKS430`?")
    _configured(tmp_path, 'ignore = ["VKS430"]')


def test_a_rule_code_that_is_not_one_on_the_command_line(capsys):
    code = main(["check", str(ROOT / "fixtures" / "valid" / "multi-resource.json"),
                 "--select", "VKS11O"])
    err = capsys.readouterr().err
    assert code == 2 and "error[VKS933]" in err and "= help: did you mean `VKS110`?" in err
    assert main(["check", str(ROOT / "fixtures" / "valid" / "multi-resource.json"),
                 "--select", "VKS110"]) == 0


def test_a_link_out_of_the_walked_folder(tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"entry_point": "main", "workgroup_sizes": [1, 1, 1]}))
    folder = tmp_path / "ops"
    folder.mkdir()
    (folder / "linked.json").symlink_to(outside)
    [walked] = check_paths([folder])
    hinted(walked.diagnostics, "VKS940",
           hint="name the link's target on the command line to check it")
    [named] = check_paths([outside])
    not_reported(named.diagnostics, "VKS940")


def test_the_web_endpoint_returns_at_most_its_limit(tmp_path):
    from web_helpers import private_server

    ops = [{"entry_point": "main", "workgroup_sizes": [1, 1, 1], f"k{i}": i}
           for i in range(1100)]  # one unknown-key note each
    with private_server(tmp_path) as server, server.client() as client:
        body = client.post("/v1/check", json={"text": json.dumps(ops)}).json()
    hinted(body["files"][0]["diagnostics"], "VKS931",
           hint="fix these first, or run `tosa-vkshader check` locally")


# -- run ----------------------------------------------------------------------------------

def _run_error(call) -> list:
    with pytest.raises(tosa_vkshader.RunError) as info:
        call()
    return info.value.diagnostics


def test_an_input_that_is_not_a_npy_file(capsys, tmp_path):
    (tmp_path / "a.npy").write_text("1, 2, 3")
    np.save(tmp_path / "b.npy", GOOD)
    code = main(["run", str(MODEL), "-i", str(tmp_path / "a.npy"), "-i",
                 str(tmp_path / "b.npy"), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "error[VKS953]" in err
    assert "= help: give a .npy file written by numpy.save" in err


def test_inputs_for_every_argument():
    hinted(_run_error(lambda: tosa_vkshader.run(MODEL, [GOOD])), "VKS953",
           hint="give one input per argument, in argument order")


def test_an_input_of_another_type():
    wrong = GOOD.astype(np.int32)
    hinted(_run_error(lambda: tosa_vkshader.run(MODEL, [wrong, GOOD])), "VKS953",
           hint="np.asarray(x, dtype=np.float32).reshape((1, 256))")


@pytest.mark.runtime
def test_one_expected_array_per_result(capsys, tmp_path):
    args = ["run", str(MODEL), "-i", str(EXAMPLE / "a.npy"), "-i", str(EXAMPLE / "b.npy"),
            "-o", str(tmp_path / "out")]
    assert main([*args, "--expect", str(EXAMPLE / "expected_0.npy")]) != 0
    assert "= help: give one --expect per result, in result order" in capsys.readouterr().err
    assert main([*args, "--expect", str(EXAMPLE / "expected_0.npy"),
                 "--expect", str(EXAMPLE / "expected_1.npy")]) == 0


def test_push_constants_for_the_ops_that_declare_them(tmp_path):
    q = np.load(PUSH_EXAMPLE / "q.npy")
    model = PUSH_EXAMPLE / "model.mlir"
    hinted(_run_error(lambda: tosa_vkshader.run(model, [q])), "VKS957",
           hint="write the 8 bytes (little-endian) to a file and pass --push-constants FILE, "
                "or give the members' values with --push-constant NAME=VALUE")
    hinted(_run_error(lambda: tosa_vkshader.run(model, [q], push_constants=bytes(4))),
           "VKS957", hint="give exactly 8 bytes")
    hinted(_run_error(lambda: tosa_vkshader.run(MODEL, [GOOD, GOOD],
                                                push_constants=bytes(4))),
           "VKS957", hint="leave out --push-constants")


def _two_ops_with_their_own_blocks() -> str:
    """The int8 example's op twice in a row, the second one's block members renamed
    (`gain`, `shift`): two ops, two push-constant blocks."""
    text = (PUSH_EXAMPLE / "model.mlir").read_text()
    line = next(x for x in text.splitlines() if "tosa.custom" in x).strip()
    first = line.replace("tosa.custom %arg0", "tosa.custom %q")
    second = line.replace("%0 = tosa.custom %arg0", "%1 = tosa.custom %0").replace(
        "multiplier", "gain").replace("offset", "shift")
    t = "tensor<1x128xi8>"
    return (f"module {{\n  func.func @main(%q: {t}) -> {t} {{\n    {first}\n    {second}\n"
            f"    return %1 : {t}\n  }}\n}}\n")


@pytest.mark.runtime
def test_values_by_name_for_two_ops_with_different_blocks(tmp_path):
    """One model, two ops with their own push-constant blocks: values by name lay out
    each op's block from its own members (one push-constant resource per compute module
    in the scenario); it was VKS957, "a run gives every op the same bytes"."""
    q = np.load(PUSH_EXAMPLE / "q.npy")
    result = tosa_vkshader.run(_two_ops_with_their_own_blocks(), [q], push_constants={
        "multiplier": "3", "offset": "-5", "gain": "2", "shift": "1"})
    assert result.ok, result.findings
    first = np.clip(q.astype(np.int32) * 3 - 5, -128, 127)
    np.testing.assert_array_equal(result[0], np.clip(first * 2 + 1, -128, 127).astype(np.int8))


def test_one_file_of_bytes_for_two_ops_with_different_blocks(tmp_path):
    """The same bytes for both ops would be read as each block's own members: refused,
    with the way that gives each op its own (a name in no block is named too)."""
    q = np.load(PUSH_EXAMPLE / "q.npy")
    model = _two_ops_with_their_own_blocks()
    found = hinted(_run_error(lambda: tosa_vkshader.run(model, [q], push_constants=bytes(8))),
                   "VKS957", hint="give each member's value by name (--push-constant "
                                  "NAME=VALUE): each op's block is then laid out from its "
                                  "own members")
    assert "(multiplier at 0, offset at 4) and 1 (gain at 0, shift at 4)" in found.message
    found = hinted(_run_error(lambda: tosa_vkshader.run(model, [q], push_constants={
        "multiplier": "3", "offset": "-5", "gain": "2", "shift": "1", "bias": "0"})),
        "VKS957", hint="the blocks' members: custom op 0: multiplier at 0, offset at 4; "
                       "custom op 1: gain at 0, shift at 4")
    assert "no custom op's push-constant block has a member 'bias'" in found.message


def test_a_model_without_static_shapes():
    dynamic = MODEL.read_text().replace("%arg0: tensor<1x256xf32>", "%arg0: tensor<?x256xf32>")
    hinted(_run_error(lambda: tosa_vkshader.run(dynamic, [GOOD, GOOD])), "VKS959",
           hint="give every argument and result a static shape and an element type among "
                + ", ".join(sorted(set(NUMPY_DTYPES))))


def test_without_a_vulkan_driver(tmp_path, monkeypatch):
    monkeypatch.setenv("VK_ICD_FILENAMES", str(tmp_path / "no_such_icd.json"))
    monkeypatch.delenv("VK_DRIVER_FILES", raising=False)
    hinted(_run_error(lambda: tosa_vkshader.run(MODEL, [GOOD, GOOD])), "VKS951",
           hint="sudo apt-get install libvulkan1 mesa-vulkan-drivers")


def test_listing_devices_without_vulkaninfo(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # (no vulkaninfo there)
    assert main(["run", "--list-devices"]) != 0
    err = capsys.readouterr().err
    assert "error[VKS951]" in err and "= help: sudo apt-get install vulkan-tools" in err


@pytest.mark.runtime
def test_a_device_that_is_not_there(capsys):
    hinted(_run_error(lambda: tosa_vkshader.run(MODEL, [GOOD, GOOD], device="mali-g720")),
           "VKS952", hint="list them with `tosa-vkshader run --list-devices`")
    assert main(["run", "--list-devices"]) == 0
    assert "llvmpipe" in capsys.readouterr().out


def test_without_the_run_extra(tmp_path):
    """No site-packages (-S): the SDK wheels and numpy are gone, and PATH has no tools."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-S", "-m", "tosa_vkshader", "run", str(MODEL),
                           "-i", "a.npy", "-i", "b.npy", "-o", str(tmp_path / "o")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    printed(done.stderr, "VKS950", "pip install '.[run]' in a tosa-vkshader checkout (from a "
                                   "wheel: pip install "
                                   "'tosa_vkshader-VERSION-py3-none-any.whl[run]')")


def _stand_in_runner(tmp_path, monkeypatch, body: str) -> None:
    script = tmp_path / "scenario-runner"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    monkeypatch.setenv("TOSA_VKSHADER_SCENARIO_RUNNER", str(script))


def test_a_runner_that_never_finishes(tmp_path, monkeypatch):
    _stand_in_runner(tmp_path, monkeypatch, "exec sleep 600")
    hinted(_run_error(lambda: tosa_vkshader.run(MODEL, [GOOD, GOOD], timeout=0.5)), "VKS956",
           hint="raise it with --timeout SECONDS, or lower workgroup_sizes")


def test_a_runner_that_fails(tmp_path, monkeypatch):
    _stand_in_runner(tmp_path, monkeypatch, 'echo "ERROR: out of device memory" >&2\nexit 1')
    hinted(_run_error(lambda: tosa_vkshader.run(MODEL, [GOOD, GOOD])), "VKS955",
           hint="--keep-workdir keeps scenario.json and the files to reproduce it")


@pytest.mark.runtime
def test_hlsl_is_embedded_for_the_run_and_fix_does_it_in_the_model(capsys, tmp_path):
    """(Debian's glslang compiles HLSL for Vulkan 1.1, hence the target-env.)"""
    hlsl = tosa_vkshader.Options(target_env="vulkan1.1")
    op = op_from_shader(ROOT / "fixtures" / "shaders" / "hlsl_copy.hlsl", name="twice",
                        workgroup_sizes=[1, 1, 1], embed="source", options=hlsl)
    model = tmp_path / "hlsl.mlir"
    model.write_text(op.to_mlir(["tensor<64xf32>"], ["tensor<64xf32>"], options=hlsl))
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.tosa-vkshader]\ntarget-env = "vulkan1.1"\n')
    np.save(tmp_path / "x.npy", np.arange(64, dtype=np.float32))
    args = ["run", str(model), "-i", str(tmp_path / "x.npy"), "-o", str(tmp_path / "out"),
            "--config", str(config)]
    assert main(args) == 0
    printed(capsys.readouterr().err, "VKS958",
            "tosa-vkshader fix FILE --embed spirv does the same in the model's source")
    assert main(["fix", str(model), "--embed", "spirv", "--config", str(config)]) == 0
    capsys.readouterr()
    assert main(args) == 0
    assert "VKS958" not in capsys.readouterr().err


TEXEL = """#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer lut;
layout(set = 0, binding = 1) writeonly buffer Out { float o[]; };
void main() {
    int i = int(gl_GlobalInvocationID.x);
    o[i] = texelFetch(lut, i).x;
}
"""
STORAGE = TEXEL.replace("uniform samplerBuffer lut;", "readonly buffer Lut { float lut[]; };") \
    .replace("texelFetch(lut, i).x", "lut[i]")


@pytest.mark.runtime
def test_a_descriptor_type_the_runner_cannot_bind(tmp_path):
    # (check's finding, VKS252, lowered: run's own refusal is the point here)
    lowered = tosa_vkshader.Options(severity={"VKS252": Severity.WARNING})

    def model(source: str, **kwargs) -> str:
        shader = tmp_path / "kernel.comp"
        shader.write_text(source)
        op = op_from_shader(shader, workgroup_sizes=[1, 1, 1], options=lowered, **kwargs)
        return op.to_mlir(["tensor<64xf32>"], ["tensor<64xf32>"], options=lowered)

    x = np.arange(64, dtype=np.float32)
    texel = model(TEXEL, format_of={"lut": "VK_FORMAT_R32_SFLOAT"})
    hinted(_run_error(lambda: tosa_vkshader.run(texel, [x], options=lowered)), "VKS959",
           hint="bind it as a storage buffer (an array in the shader), image or tensor")
    [result] = tosa_vkshader.run(model(STORAGE), [x])
    np.testing.assert_array_equal(result, x)
