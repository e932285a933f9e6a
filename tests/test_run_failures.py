"""`run` when something is wrong: the inputs, the model, the machine or the runner.

None of these reaches a real scenario-runner run: inputs and the model are refused before
it starts, a missing toolchain or driver is found before anything is written, and the
runner's crash and timeout are simulated with a stand-in runner (TOSA_VKSHADER_SCENARIO_RUNNER),
so the limits are tested without racing a clock.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from toolchain import stand_in_runner

import tosa_vkshader
from tosa_vkshader.cli import main

from conftest import ROOT

EXAMPLE = ROOT / "examples" / "add_sub_f32"
MODEL = EXAMPLE / "model.mlir"
PUSH_EXAMPLE = ROOT / "examples" / "scale_i8_push"


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def inputs(tmp_path, a, b) -> list[str]:
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    return ["-i", str(tmp_path / "a.npy"), "-i", str(tmp_path / "b.npy")]


GOOD = np.zeros((1, 256), np.float32)


@pytest.mark.parametrize(("a", "expected", "given", "hint"), [
    (np.zeros((1, 256), np.int32), "tensor<1x256xf32> (float32 [1, 256])",
     "tensor<1x256xi32> (int32 [1, 256])", "np.asarray(x, dtype=np.float32).reshape((1, 256))"),
    (np.zeros((256,), np.float32), "tensor<1x256xf32> (float32 [1, 256])",
     "tensor<256xf32> (float32 [256])", "x.reshape((1, 256))"),
    # a reshape never makes 256 elements of 128: no impossible shape is suggested
    (np.zeros((2, 64), np.float32), "tensor<1x256xf32> (float32 [1, 256])",
     "tensor<2x64xf32> (float32 [2, 64])",
     "give an array of 256 float32 element(s) in the shape [1, 256] (this one has 128)"),
])
def test_wrong_input_type_names_argument_expected_and_given(capsys, tmp_path, a, expected,
                                                             given, hint):
    code, _, err = cli(capsys, "run", MODEL, *inputs(tmp_path, a, GOOD), "-o", tmp_path / "o")
    assert code == 2
    assert f"error[VKS953] input 0 for argument %arg0: expected {expected}, given {given}" in err
    assert f"= help: {hint}\n" in err
    assert not (tmp_path / "o").exists()


def test_big_endian_input_is_named_as_given(capsys, tmp_path):
    """The op reads little-endian floats: a big-endian file is not silently swapped."""
    code, _, err = cli(capsys, "run", MODEL, *inputs(tmp_path, GOOD.astype(">f4"), GOOD),
                       "-o", tmp_path / "o")
    assert code == 2
    assert "error[VKS953] input 0 for argument %arg0: expected tensor<1x256xf32> (float32 " \
           "[1, 256]), given" in err
    assert "(>f4 [1, 256])" in err


def test_input_that_is_not_npy_says_why(capsys, tmp_path):
    (tmp_path / "a.npy").write_text("1.0, 2.0\n")
    np.save(tmp_path / "b.npy", GOOD)
    code, _, err = cli(capsys, "run", MODEL, "-i", tmp_path / "a.npy", "-i",
                       tmp_path / "b.npy", "-o", tmp_path / "o")
    assert code == 2
    assert f"error[VKS953] cannot read input 0 {tmp_path / 'a.npy'}: " in err
    assert "Traceback" not in err


def test_missing_input(capsys, tmp_path):
    np.save(tmp_path / "a.npy", GOOD)
    code, _, err = cli(capsys, "run", MODEL, "-i", tmp_path / "a.npy", "-o", tmp_path / "o")
    assert code == 2
    assert "error[VKS953] @main takes 2 argument(s) (%arg0: tensor<1x256xf32>, %arg1: " \
           "tensor<1x256xf32>), 1 input(s) given" in err


def test_api_raises_run_error_with_diagnostics():
    with pytest.raises(tosa_vkshader.RunError) as caught:
        tosa_vkshader.run(MODEL, [GOOD])
    assert caught.value.exit_code == 2
    assert [d.code for d in caught.value.diagnostics] == ["VKS953"]


def test_model_errors_stop_the_run_with_check_diagnostics(capsys, tmp_path):
    broken = tmp_path / "broken.mlir"
    broken.write_text(MODEL.read_text().replace("input_1_binding", "input_01_binding"))
    code, _, err = cli(capsys, "run", broken, *inputs(tmp_path, GOOD, GOOD), "-o",
                       tmp_path / "o")
    assert code == 1
    assert "error[VKS111]" in err and "broken.mlir:" in err
    assert not (tmp_path / "o").exists()


def test_push_constants_missing_or_of_the_wrong_size(capsys, tmp_path):
    q = ["-i", PUSH_EXAMPLE / "q.npy"]
    code, _, err = cli(capsys, "run", PUSH_EXAMPLE / "model.mlir", *q, "-o", tmp_path)
    assert code == 2
    assert "error[VKS957] custom op 0 declares an 8-byte push-constant block and no " \
           "--push-constants were given" in err
    (tmp_path / "pc.bin").write_bytes(bytes(4))
    code, _, err = cli(capsys, "run", PUSH_EXAMPLE / "model.mlir", *q, "-o", tmp_path,
                       "--push-constants", tmp_path / "pc.bin")
    assert code == 2
    assert "--push-constants gives 4 bytes; custom op 0's push-constant block is 8 bytes" \
        in err
    code, _, err = cli(capsys, "run", MODEL, *inputs(tmp_path, GOOD, GOOD), "-o", tmp_path,
                       "--push-constants", tmp_path / "pc.bin")
    assert code == 2
    assert "no custom op's shader declares a push-constant block" in err


def test_without_the_run_extra_the_install_command_is_named(tmp_path):
    """No site-packages (-S): the SDK wheels and numpy are gone, and PATH has no tools."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-S", "-m", "tosa_vkshader", "run", str(MODEL),
                           "-i", "a.npy", "-i", "b.npy", "-o", str(tmp_path / "o")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stderr
    assert "error[VKS950]" in done.stderr
    assert "model-converter" in done.stderr and "numpy" in done.stderr
    # the package is on no index: the command that works from a checkout (or a wheel)
    assert "help: pip install '.[run]' in a tosa-vkshader checkout" in done.stderr


def test_without_a_vulkan_driver_the_install_command_is_named(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("VK_ICD_FILENAMES", str(tmp_path / "no_such_icd.json"))
    monkeypatch.delenv("VK_DRIVER_FILES", raising=False)
    code, _, err = cli(capsys, "run", MODEL, *inputs(tmp_path, GOOD, GOOD), "-o",
                       tmp_path / "o")
    assert code == 2
    assert "error[VKS951] cannot run: no Vulkan driver (ICD manifest) is installed" in err
    assert "help: sudo apt-get install libvulkan1 mesa-vulkan-drivers" in err


def test_runner_that_never_finishes_is_stopped(capsys, tmp_path, monkeypatch):
    stand_in_runner(tmp_path, monkeypatch, "exec sleep 600")
    code, _, err = cli(capsys, "run", MODEL, *inputs(tmp_path, GOOD, GOOD), "-o",
                       tmp_path / "o", "--timeout", "0.5")
    assert code == 1
    assert "error[VKS956] scenario-runner did not finish within 0.5 s and was stopped" in err
    assert not (tmp_path / "o").exists()


def test_runner_crash_is_a_diagnostic(capsys, tmp_path, monkeypatch):
    stand_in_runner(tmp_path, monkeypatch, 'echo "ERROR: about to fail" >&2\nkill -SEGV $$')
    code, _, err = cli(capsys, "run", MODEL, *inputs(tmp_path, GOOD, GOOD), "-o",
                       tmp_path / "o")
    assert code == 1
    assert "error[VKS955] scenario-runner was killed by signal 11" in err
    assert "ERROR: about to fail" in err
    assert "Traceback" not in err


def test_usage_errors(capsys, tmp_path):
    assert cli(capsys, "run", MODEL)[0] == 2  # no -o
    code, _, err = cli(capsys, "run", MODEL, "-i", tmp_path / "missing.npy", "-o", tmp_path)
    assert code == 2 and "cannot read input" in err
    code, _, err = cli(capsys, "run", MODEL, *inputs(tmp_path, GOOD, GOOD), "-o", tmp_path,
                       "--timeout", "0")
    assert code == 2 and "--timeout must be a positive number" in err


def test_a_model_without_an_entry_function():
    with pytest.raises(tosa_vkshader.RunError) as caught:
        tosa_vkshader.run("module {\n}\n", [])
    assert [d.code for d in caught.value.diagnostics] == ["VKS961"]
    assert caught.value.exit_code == 1


def test_dynamic_shapes_cannot_be_laid_out(capsys, tmp_path):
    dynamic = tmp_path / "dynamic.mlir"
    dynamic.write_text(MODEL.read_text().replace("%arg0: tensor<1x256xf32>",
                                                 "%arg0: tensor<?x256xf32>"))
    code, _, err = cli(capsys, "run", dynamic, *inputs(tmp_path, GOOD, GOOD), "-o", tmp_path)
    assert code == 1
    assert "error[VKS959]" in err and "argument 0 (%arg0) `tensor<?x256xf32>` has no static " \
        "shape" in err


def test_check_does_not_pay_for_run():
    """`run` is registered lazily: `check` loads neither the runtime package nor numpy."""
    probe = ("import sys; from tosa_vkshader.cli import main; "
             f"main(['check', {str(MODEL)!r}]); "
             "print('LOADED', [m for m in ('numpy', 'tosa_vkshader.runtime', "
             "'tosa_vkshader.commands.run') if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert "LOADED []" in done.stdout, done.stdout + done.stderr
