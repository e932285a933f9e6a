"""`tosa-vkshader run` as a program of its own takes the fast lane (commands/run_fast):
the tools are started before argparse, the configuration and the checker are loaded.
Whatever it takes on, it must end exactly as the usual path (`main()` in this process)
does: the same output, diagnostics, exit status and files, and nothing in OUTDIR or the
temporary folder when the check fails. What it does not take on, it hands over before it
has printed or written anything.

Each program here records the tools the fast lane started (the usual path starts them
with subprocess, which is not recorded), so a test knows which path ran; a stand-in
scenario runner keeps the runner running while the check fails, without racing a clock.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from toolchain import stand_in_runner

from tosa_vkshader.cli import build_parser, main
from tosa_vkshader.commands.run_argv import read_run_argv
from tosa_vkshader.runtime.npyfile import HostArray, npy_bytes, read_plain_npy

from conftest import ROOT

pytestmark = pytest.mark.runtime

EXAMPLE = ROOT / "examples" / "add_sub_f32"
MODEL = EXAMPLE / "model.mlir"
PUSH_EXAMPLE = ROOT / "examples" / "scale_i8_push"
INPUTS = ["-i", EXAMPLE / "a.npy", "-i", EXAMPLE / "b.npy"]
# Runs the program as `python -m tosa_vkshader` does, recording each tool the fast lane
# starts (one line each, written at once: the program leaves with os._exit).
PROBE = """
import os, runpy, sys
from tosa_vkshader.runtime import spawn
record, argv = sys.argv[1], sys.argv[2:]
start = spawn.Folder.start
def recorded(self, command, *args, **kwargs):
    with open(record, "a") as file:
        file.write(os.path.basename(command[0]) + "\\n")
    return start(self, command, *args, **kwargs)
spawn.Folder.start = recorded
sys.argv = ["tosa-vkshader", *argv]
runpy.run_module("tosa_vkshader", run_name="__main__")
"""
ALL_TOOLS = ["model-converter", "vgf_dump", "scenario-runner"]


class Ran:
    def __init__(self, code: int, out: str, err: str, started: list[str]) -> None:
        self.code, self.out, self.err, self.started = code, out, err, started


@pytest.fixture
def tmpdir_env(tmp_path, monkeypatch) -> Path:
    """A temporary directory of the runs' own, to see that nothing is left in it."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    return folder


def program(tmp_path: Path, *argv) -> Ran:
    record = tmp_path / "started.txt"
    record.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", PROBE, str(record), "run",
                           *map(str, argv)], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    started = record.read_text().split() if record.exists() else []
    return Ran(done.returncode, done.stdout, done.stderr, started)


def usual(capsys, *argv) -> Ran:
    code = main(["run", *map(str, argv)])
    out, err = capsys.readouterr()
    return Ran(code, out, err, [])


def both(capsys, tmp_path: Path, *argv, outdir: str = "out") -> tuple[Ran, Ran]:
    """The fast lane's run and the usual path's, each writing to its own OUTDIR (the
    name is the same in both outputs once the folder is replaced)."""
    fast_dir, usual_dir = tmp_path / "fast" / outdir, tmp_path / "usual" / outdir
    fast = program(tmp_path, *argv, "-o", fast_dir)
    slow = usual(capsys, *argv, "-o", usual_dir)
    for ran, folder in ((fast, fast_dir), (slow, usual_dir)):
        ran.out = ran.out.replace(str(folder), "OUTDIR")
        ran.err = ran.err.replace(str(folder), "OUTDIR")
    return fast, slow


def same_ending(fast: Ran, slow: Ran) -> None:
    assert (fast.code, fast.out, fast.err) == (slow.code, slow.out, slow.err)


def test_a_run_takes_the_fast_lane_and_ends_as_the_usual_path(capsys, tmp_path, tmpdir_env):
    fast, slow = both(capsys, tmp_path, MODEL, *INPUTS, "--expect", EXAMPLE /
                      "expected_0.npy", "--expect", EXAMPLE / "expected_1.npy")
    assert fast.started == ALL_TOOLS
    same_ending(fast, slow)
    assert fast.code == 0 and "ran on llvmpipe" in fast.out
    for name in ("result_0.npy", "result_1.npy"):  # written without numpy, byte for byte
        assert (tmp_path / "fast" / "out" / name).read_bytes() == \
            (tmp_path / "usual" / "out" / name).read_bytes()
    assert list(tmpdir_env.iterdir()) == []


def test_push_constants_and_a_kept_work_directory(capsys, tmp_path, tmpdir_env):
    fast = program(tmp_path, PUSH_EXAMPLE / "model.mlir", "-i", PUSH_EXAMPLE / "q.npy",
                   "--push-constants", PUSH_EXAMPLE / "push_constants.bin", "-o",
                   tmp_path / "out", "--expect", PUSH_EXAMPLE / "expected_0.npy",
                   "--keep-workdir")
    assert fast.started == ALL_TOOLS
    assert fast.code == 0, fast.err
    kept = Path(fast.err.split("work directory kept: ", 1)[1].split()[0])
    assert {"model.mlir", "model.vgf", "scenario.json", "push_constants.npy",
            "runner.log"} <= {p.name for p in kept.iterdir()}
    scenario = json.loads((kept / "scenario.json").read_text())
    assert scenario["resources"][0]["graph"]["push_constants_size"] == 8


def test_warnings_are_printed_as_the_usual_path_prints_them(capsys, tmp_path):
    """Push constants without the attribute: the check warns (VKS423), the run runs."""
    model = tmp_path / "no_attribute.mlir"
    model.write_text((PUSH_EXAMPLE / "model.mlir").read_text().replace(
        ', \\"push_constants\\": \\"multiplier: 4, offset: 4\\"', ""))
    fast, slow = both(capsys, tmp_path, model, "-i", PUSH_EXAMPLE / "q.npy",
                      "--push-constants", PUSH_EXAMPLE / "push_constants.bin", "--expect",
                      PUSH_EXAMPLE / "expected_0.npy")
    assert fast.started == ALL_TOOLS
    same_ending(fast, slow)
    assert fast.code == 0 and "warning[VKS423]" in fast.err


def test_check_errors_found_while_the_runner_works(capsys, tmp_path, tmpdir_env,
                                                   monkeypatch):
    """The converter takes a shader whose binding the attributes do not declare; the
    check does not. The runner (here one that would run for ten minutes) is stopped, the
    check's diagnostics are the only output, and nothing is written."""
    broken = tmp_path / "broken.mlir"
    broken.write_text(MODEL.read_text().replace("binding = 3) writeonly",
                                                "binding = 5) writeonly"))
    stand_in_runner(tmp_path, monkeypatch, "exec sleep 600")
    fast, slow = both(capsys, tmp_path, broken, *INPUTS)
    assert fast.started == ALL_TOOLS
    same_ending(fast, slow)
    assert fast.code == 1 and "error[VKS413]" in fast.err and "broken.mlir:" in fast.err
    assert not (tmp_path / "fast" / "out").exists()
    assert list(tmpdir_env.iterdir()) == []


def test_inputs_that_do_not_fit_the_arguments(capsys, tmp_path, monkeypatch):
    np.save(tmp_path / "a.npy", np.zeros((1, 256), np.int32))
    stand_in_runner(tmp_path, monkeypatch, "exec sleep 600")
    fast, slow = both(capsys, tmp_path, MODEL, "-i", tmp_path / "a.npy", "-i",
                      EXAMPLE / "b.npy")
    assert fast.started == ALL_TOOLS
    same_ending(fast, slow)
    assert fast.code == 2 and "error[VKS953] input 0 for argument %arg0: expected " \
        "tensor<1x256xf32> (float32 [1, 256]), given tensor<1x256xi32>" in fast.err
    assert not (tmp_path / "fast" / "out").exists()


def test_push_constants_of_the_wrong_size(capsys, tmp_path):
    (tmp_path / "pc.bin").write_bytes(bytes(4))
    fast, slow = both(capsys, tmp_path, PUSH_EXAMPLE / "model.mlir", "-i",
                      PUSH_EXAMPLE / "q.npy", "--push-constants", tmp_path / "pc.bin")
    assert fast.started == ALL_TOOLS
    same_ending(fast, slow)
    assert fast.code == 2 and "error[VKS957] --push-constants gives 4 bytes" in fast.err


@pytest.mark.parametrize(("body", "code", "message"), [
    ('echo "ERROR: about to fail" >&2\nkill -SEGV $$', 1,
     "error[VKS955] scenario-runner was killed by signal 11"),
    ("exec sleep 600", 1, "error[VKS956] scenario-runner did not finish within 0.5 s"),
])
def test_runner_failures(capsys, tmp_path, monkeypatch, body, code, message):
    stand_in_runner(tmp_path, monkeypatch, body)
    fast, slow = both(capsys, tmp_path, MODEL, *INPUTS, "--timeout", "0.5")
    assert fast.started == ALL_TOOLS
    same_ending(fast, slow)
    assert fast.code == code and message in fast.err
    assert not (tmp_path / "fast" / "out").exists()


def test_configuration_errors_stop_the_run(capsys, tmp_path, monkeypatch):
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.tosa-vkshader]\nworkgroup-semantic = "local-size"\n')
    stand_in_runner(tmp_path, monkeypatch, "exec sleep 600")
    fast, slow = both(capsys, tmp_path, MODEL, *INPUTS, "--config", config)
    assert fast.started == ALL_TOOLS
    same_ending(fast, slow)
    assert fast.code == 2 and "error[VKS901]" in fast.err


def test_what_the_converter_refuses_is_left_to_the_usual_path(capsys, tmp_path):
    """The converter fails on a misspelled key: the fast lane has started only the
    converter, prints nothing, and the usual path reports the check's errors."""
    broken = tmp_path / "broken.mlir"
    broken.write_text(MODEL.read_text().replace("input_1_binding", "input_01_binding"))
    fast, slow = both(capsys, tmp_path, broken, *INPUTS)
    assert fast.started == ["model-converter"]
    same_ending(fast, slow)
    assert fast.code == 1 and "error[VKS111]" in fast.err


def test_inputs_numpy_must_read_are_left_to_the_usual_path(capsys, tmp_path):
    with open(tmp_path / "a.npy", "wb") as file:  # format 2.0: not a plain .npy
        np.lib.format.write_array(file, np.load(EXAMPLE / "a.npy"), version=(2, 0))
    fast, slow = both(capsys, tmp_path, MODEL, "-i", tmp_path / "a.npy", "-i",
                      EXAMPLE / "b.npy")
    assert fast.started == ["model-converter"]
    same_ending(fast, slow)
    assert fast.code == 0


@pytest.mark.parametrize("argv", [
    [MODEL, f"--input={EXAMPLE / 'a.npy'}", "-i", EXAMPLE / "b.npy", "-o", "OUT"],
    [MODEL, *INPUTS, "-o", "OUT", "--device", "llvmpipe"],
    [MODEL, *INPUTS, "-o", "OUT", "--timeout", "0"],
    [ROOT / "fixtures" / "valid" / "multi-resource.json", "-o", "OUT"],
])
def test_command_lines_the_fast_lane_leaves_alone(capsys, tmp_path, argv):
    """Nothing is started for what argparse must read, --device, an op JSON file..."""
    argv = [tmp_path / "out" if a == "OUT" else a for a in argv]
    fast = program(tmp_path, *argv)
    slow = usual(capsys, *argv)
    assert fast.started == []
    same_ending(fast, slow)


def test_hlsl_models_are_left_to_the_usual_path(tmp_path):
    hlsl = tmp_path / "hlsl.mlir"
    hlsl.write_text(MODEL.read_text().replace('\\"GLSL\\"', '\\"HLSL\\"'))
    fast = program(tmp_path, hlsl, *INPUTS, "-o", tmp_path / "out")
    assert fast.started == []
    assert fast.code == 1  # GLSL code said to be HLSL: the check's errors


# -- what the fast lane reads without numpy or argparse ------------------------------------


@pytest.mark.parametrize("argv", [
    ["m.mlir", "-o", "out"],
    ["-i", "a.npy", "m.mlir", "--input", "b.npy", "--output-dir", "out"],
    ["m.mlir", "-o", "o", "-o", "p", "--keep-workdir", "--no-cache"],
    ["m.mlir", "-o", "o", "--push-constants", "pc.bin", "--config", "pyproject.toml"],
    ["m.mlir", "-o", "o", "--expect", "e0.npy", "--expect", "e1.npy", "--rtol", " 1e-3 ",
     "--atol", "inf", "--timeout", "2.5"],
    ["m.mlir", "-i", "", "-o", "o"],
])
def test_the_fast_lane_reads_a_command_line_as_argparse_does(argv):
    parsed = vars(build_parser(["run"]).parse_args(["run", *argv]))
    parsed.pop("run")
    assert vars(read_run_argv(argv)) == parsed


@pytest.mark.parametrize("argv", [
    [], ["m.mlir"], ["-o", "out"], ["m.mlir", "n.mlir", "-o", "o"], ["m.mlir", "-o"],
    ["m.mlir", "-o", "-x"], ["m.mlir", "-o", "o", "--rtol", "x"], ["m.mlir", "--", "-o", "o"],
    ["m.mlir", "-o", "o", "--keep"], ["m.mlir", "-oout"], ["m.mlir", "-o", "o", "-h"],
    ["m.mlir", "-o", "o", "--timeout", "-1"], ["m.mlir", "-o", "o", "--timeout", "nan"],
    ["--list-devices"], ["m.json", "-o", "o", "--operands", "tensor<4xf32>"],
])
def test_other_command_lines_are_left_to_argparse(argv):
    assert read_run_argv(argv) is None


@pytest.mark.parametrize("array", [
    np.zeros((1, 256), np.float32), np.arange(7, dtype=np.int8), np.float64(2.5),
    np.ones((2, 3, 4), bool), np.zeros((10 ** 15, 0), np.uint16),
    *(np.zeros(n, np.int32) for n in range(0, 130, 7)),
    np.arange(12, dtype=np.float16).reshape(3, 4),
])
def test_results_are_written_as_numpy_saves_them(array):
    saved = io.BytesIO()
    np.save(saved, array)
    host = HostArray(str(array.dtype), tuple(np.shape(array)), np.asarray(array).tobytes())
    assert npy_bytes(host) == saved.getvalue()
    assert read_plain_npy(saved.getvalue()) == host


def test_the_runners_own_npy_header_is_read():
    """The scenario runner writes the header without the spaces after its commas."""
    header = "{'descr': '|i1','fortran_order': False,'shape': (4,)}"
    header += " " * (63 - 10 - len(header)) + "\n"
    data = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + \
        bytes([1, 2, 255, 0])
    assert read_plain_npy(data) == HostArray("int8", (4,), bytes([1, 2, 255, 0]))


def kept_workdir(ran: Ran) -> Path:
    return Path(ran.err.split("work directory kept: ", 1)[1].split()[0])


def cached_manifests(cache: Path) -> list[Path]:
    return sorted((cache / "vulkan-layers").glob("*/VkLayer_*/VkLayer_*.json"))


def test_layer_manifests_are_kept_in_the_cache_and_rebuilt_when_stale(tmp_path, tmpdir_env,
                                                                      monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(cache))
    argv = [MODEL, *INPUTS, "-o", tmp_path / "out", "--keep-workdir"]
    first = program(tmp_path, *argv)
    assert first.code == 0, first.err
    graph, tensor = cached_manifests(cache)
    good = graph.read_text()
    assert json.loads(good)["layer"]["library_path"].startswith("/")
    assert not (kept_workdir(first) / "layers").exists()
    graph.write_text(good.replace("libVkLayer_Graph.so", "libVkLayer_Nothing.so"))
    tensor.unlink()
    again = program(tmp_path, *argv)
    assert again.code == 0, again.err
    assert graph.read_text() == good and tensor.exists()
    assert [p.name for p in graph.parent.iterdir()] == ["VkLayer_Graph.json"]


def test_without_a_cache_folder_the_manifests_go_into_the_work_directory(tmp_path,
                                                                          tmpdir_env,
                                                                          monkeypatch):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(tmp_path / "file" / "cache"))
    ran = program(tmp_path, MODEL, *INPUTS, "-o", tmp_path / "out", "--keep-workdir")
    assert ran.code == 0, ran.err
    layers = kept_workdir(ran) / "layers"
    assert sorted(p.name for p in layers.iterdir()) == ["VkLayer_Graph", "VkLayer_Tensor"]


@pytest.mark.parametrize("env", [
    {}, {"XDG_CACHE_HOME": "/x/cache"}, {"XDG_CACHE_HOME": ""}, {"XDG_CACHE_HOME": " "},
    {"HOME": "/home/someone"}, {"HOME": "/home/someone", "XDG_CACHE_HOME": "/c"},
    {"XDG_CACHE_HOME": "relative"}, {"HOME": "relative"},
])
def test_the_cache_folder_is_where_platformdirs_puts_it(monkeypatch, env):
    import platformdirs

    from tosa_vkshader import cachedir

    monkeypatch.delenv("TOSA_VKSHADER_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    try:
        expected = Path(platformdirs.user_cache_dir("tosa-vkshader"))
    except RuntimeError:  # platformdirs refuses a relative HOME
        return
    assert cachedir.default_cache_dir() == expected


def test_the_work_directory_is_in_memory_unless_the_environment_says_otherwise(
        monkeypatch):
    import tempfile

    from tosa_vkshader.runtime import workdir

    for name in ("TMPDIR", "TEMP", "TMP"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(tempfile, "tempdir", None)  # gettempdir() keeps what it found
    roomy = os.path.isdir(workdir.MEMORY) and workdir._has_room(workdir.MEMORY, 2 ** 27)
    assert (workdir._candidates(0)[0] == workdir.MEMORY) == roomy
    assert workdir.MEMORY not in workdir._candidates(2 ** 62)  # no room for that
    monkeypatch.setenv("TMPDIR", "/somewhere")
    assert workdir._candidates(0)[:2] == ["/somewhere", "/tmp"]
    monkeypatch.setattr(tempfile, "tempdir", "/chosen")  # as a program may set it
    assert workdir._candidates(0) == ["/chosen"]


def test_writing_the_results_imports_nothing_after_the_runner_exits(tmp_path):
    """What the end of a run needs is loaded while the runner works: writing a result and
    removing the work directory import no module then."""
    probe = f"""
import sys
from tosa_vkshader.commands.run_finish import _preload_the_end
_preload_the_end([], False)
before = set(sys.modules)
from tosa_vkshader.commands.run_report import _save
from tosa_vkshader.runtime.npyfile import HostArray
from tosa_vkshader.runtime.workdir import make_workdir, remove_workdir
_save(__import__("pathlib").Path({str(tmp_path / "r.npy")!r}), HostArray("int8", (2,), b"ab"))
remove_workdir(make_workdir())
print("NEW", sorted(set(sys.modules) - before))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT / "src"),
                                            "TMPDIR": str(tmp_path)})
    assert "NEW []" in done.stdout, done.stdout + done.stderr


def test_sigterm_while_the_runner_works_stops_it_and_leaves_nothing(tmp_path, tmpdir_env,
                                                                    monkeypatch):
    """The stand-in runner says when it runs (a file holding its process id); the
    program, sent SIGTERM then, exits 143, having stopped the runner and removed its work
    directory."""
    marker = tmp_path / "runner-pid"
    stand_in_runner(tmp_path, monkeypatch, f"echo $$ > {marker}.tmp\n"
                                           f"mv {marker}.tmp {marker}\nexec sleep 600")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(
        [sys.executable, "-m", "tosa_vkshader", "run", str(MODEL), *map(str, INPUTS), "-o",
         str(tmp_path / "out")], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        while not marker.exists():
            assert process.poll() is None, process.communicate()
            time.sleep(0.01)
        process.terminate()
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 143, err
    assert "tosa-vkshader: terminated" in err
    assert not Path(f"/proc/{marker.read_text().strip()}").exists()  # stopped and collected
    assert list(tmpdir_env.iterdir()) == []
    assert not (tmp_path / "out").exists()
