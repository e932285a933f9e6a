"""`tosa-vkshader run` as a process: what it leaves behind (nothing in the temporary
folder, nothing in OUTDIR when the model has errors), how it stops (SIGTERM, errors
found while the scenario runner works), and the files it keeps between runs (the
emulation layers' manifests). A stand-in scenario runner keeps the runner running while
the check fails, without racing a clock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from toolchain import stand_in_runner

from tosa_vkshader.cli import main
from tosa_vkshader.runtime import workdir
from tosa_vkshader.runtime.npyfile import Npy, npy_bytes, read_npy

from conftest import ROOT

pytestmark = pytest.mark.runtime

EXAMPLE = ROOT / "examples" / "add_sub_f32"
MODEL = EXAMPLE / "model.mlir"
INPUTS = ["-i", EXAMPLE / "a.npy", "-i", EXAMPLE / "b.npy"]


@pytest.fixture
def tmpdir_env(tmp_path, monkeypatch) -> Path:
    """A temporary directory of the runs' own, to see that nothing is left in it."""
    import tempfile

    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))  # for a child process
    monkeypatch.setattr(tempfile, "tempdir", str(folder))  # in this one, where it is set
    return folder


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_check_errors_found_while_the_runner_works(capsys, tmp_path, tmpdir_env,
                                                   monkeypatch):
    """The converter takes a shader whose binding the attributes do not declare; the
    check does not. The runner (here one that would run for ten minutes) is stopped, the
    check's diagnostics are the only output, and nothing is written."""
    broken = tmp_path / "broken.mlir"
    broken.write_text(MODEL.read_text().replace("binding = 3) writeonly",
                                                "binding = 5) writeonly"))
    stand_in_runner(tmp_path, monkeypatch, "exec sleep 600")
    started = time.monotonic()
    code, out, err = cli(capsys, "run", broken, *INPUTS, "-o", tmp_path / "out")
    assert code == 1 and "error[VKS413]" in err and "broken.mlir:" in err
    assert time.monotonic() - started < 60  # the runner was not waited for
    assert out == ""
    assert not (tmp_path / "out").exists()
    assert list(tmpdir_env.iterdir()) == []


def test_configuration_errors_stop_the_run(capsys, tmp_path, monkeypatch):
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.tosa-vkshader]\nworkgroup-semantic = "local-size"\n')
    stand_in_runner(tmp_path, monkeypatch, "exec sleep 600")
    code, _, err = cli(capsys, "run", MODEL, *INPUTS, "--config", config)
    assert code == 2 and "error[VKS901]" in err and "workgroup-semantics" in err


def test_expect_without_an_output_folder(capsys, tmp_path):
    """--expect needs no -o: the results are compared, not written."""
    code, out, err = cli(capsys, "run", MODEL, *INPUTS, "--expect", EXAMPLE / "expected_0.npy",
                         "--expect", EXAMPLE / "expected_1.npy")
    assert code == 0, err
    assert out.splitlines()[0] == "result_0: float32 [1, 256]"
    assert "all 2 result(s) match the expected arrays" in out
    code, out, err = cli(capsys, "run", MODEL, *INPUTS, "--expect", EXAMPLE / "expected_1.npy",
                         "--expect", EXAMPLE / "expected_0.npy")
    assert code == 1
    assert "error[VKS960] result_0: 256 of 256 element(s) differ beyond rtol=1e-05, " \
           "atol=1e-06; first at index [0, 0]" in err


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


def kept_workdir(err: str) -> Path:
    return Path(err.split("work directory kept: ", 1)[1].split()[0])


def test_layer_manifests_are_kept_in_the_cache_and_rebuilt_when_stale(capsys, tmp_path,
                                                                      monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(cache))
    argv = ["run", MODEL, *INPUTS, "--keep-workdir"]
    code, _, err = cli(capsys, *argv)
    assert code == 0, err
    graph, tensor = sorted((cache / "vulkan-layers").glob("*/VkLayer_*/VkLayer_*.json"))
    good = graph.read_text()
    assert json.loads(good)["layer"]["library_path"].startswith("/")
    assert not (kept_workdir(err) / "layers").exists()
    graph.write_text(good.replace("libVkLayer_Graph.so", "libVkLayer_Nothing.so"))
    tensor.unlink()
    code, _, err = cli(capsys, *argv)
    assert code == 0, err
    assert graph.read_text() == good and tensor.exists()
    assert [p.name for p in graph.parent.iterdir()] == ["VkLayer_Graph.json"]
    # the user's own layer folders and layers are kept, after the emulation layers
    monkeypatch.setenv("VK_LAYER_PATH", str(tmp_path / "mine"))
    monkeypatch.setenv("VK_INSTANCE_LAYERS", "VK_LAYER_MINE")
    code, _, err = cli(capsys, *argv)
    assert code == 0, err  # (the loader skips a layer it cannot find)


def test_without_a_cache_folder_the_manifests_go_into_the_work_directory(capsys, tmp_path,
                                                                          monkeypatch):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(tmp_path / "file" / "cache"))
    code, _, err = cli(capsys, "run", MODEL, *INPUTS, "--keep-workdir")
    assert code == 0, err
    layers = kept_workdir(err) / "layers"
    assert sorted(p.name for p in layers.iterdir()) == ["VkLayer_Graph", "VkLayer_Tensor"]


def test_the_work_directory_is_in_memory_unless_the_environment_says_otherwise(
        monkeypatch):
    import tempfile

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


@pytest.mark.parametrize("array", [
    np.zeros((1, 256), np.float32), np.arange(7, dtype=np.int8), np.float64(2.5),
    np.ones((2, 3, 4), bool), np.zeros((10 ** 15, 0), np.uint16),
    *(np.zeros(n, np.int32) for n in range(0, 130, 7)),
    np.arange(12, dtype=np.float16).reshape(3, 4),
])
def test_files_handed_to_the_runner_are_what_numpy_saves(array):
    """Inputs and sentinels are written before numpy is loaded: byte for byte numpy's."""
    import io

    saved = io.BytesIO()
    np.save(saved, array)
    plain = Npy(str(array.dtype), tuple(np.shape(array)), np.asarray(array).tobytes())
    assert npy_bytes(plain) == saved.getvalue()
    assert read_npy(saved.getvalue()) == plain


def test_the_runners_own_npy_header_is_read():
    """The scenario runner writes the header without the spaces after its commas."""
    header = "{'descr': '|i1','fortran_order': False,'shape': (4,)}"
    header += " " * (63 - 10 - len(header)) + "\n"
    data = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + \
        bytes([1, 2, 255, 0])
    assert read_npy(data) == Npy("int8", (4,), bytes([1, 2, 255, 0]))


def test_expect_usage_is_settled_and_a_difference_said_as_it_is(capsys, tmp_path):
    """As many --expect as results, files that can be read and one kind of tolerance are
    usage (exit 2, the unreadable file before anything runs); a NaN against a number is
    said without error sizes of the elements that matched."""
    expected = [EXAMPLE / "expected_0.npy", EXAMPLE / "expected_1.npy"]
    code, _, err = cli(capsys, "run", MODEL, *INPUTS, *(f for e in expected * 2
                                                       for f in ("--expect", e)))
    assert code == 2 and "error[VKS953] 4 --expect array(s) given for 2 result(s)" in err
    code, out, err = cli(capsys, "run", MODEL, *INPUTS, "--expect", tmp_path / "none.npy",
                         "--expect", expected[1])
    assert code == 2 and out == "" and "cannot read --expect" in err
    code, out, err = cli(capsys, "run", MODEL, *INPUTS, "--expect", expected[0], "--expect",
                         expected[1], "--ulp", "1", "--atol", "0.5")
    assert code == 2 and out == "" and "give --rtol/--atol or --ulp, not both" in err
    nan = np.load(expected[0])
    nan[0, 5] = np.nan
    np.save(tmp_path / "nan.npy", nan)
    code, _, err = cli(capsys, "run", MODEL, *INPUTS, "--expect", tmp_path / "nan.npy",
                       "--expect", expected[1])
    assert code == 1
    said = err.split("error[VKS960] ")[1].splitlines()[0]
    assert said.startswith("result_0: 1 of 256 element(s) differ beyond rtol=1e-05, "
                           "atol=1e-06; first at index [0, 5]: got ")
    assert said.endswith("expected nan (one is NaN)")


def test_a_failed_run_with_keep_workdir_names_the_folder_it_kept(capsys, tmp_path,
                                                                 tmpdir_env, monkeypatch):
    stand_in_runner(tmp_path, monkeypatch, 'echo "ERROR: no" >&2\nexit 3')
    code, _, err = cli(capsys, "run", MODEL, *INPUTS, "--keep-workdir")
    assert code == 1 and "error[VKS955]" in err
    kept = kept_workdir(err)
    assert kept.parent == tmpdir_env and (kept / "scenario.json").exists()


def test_ctrl_c_while_the_work_directory_is_removed_still_removes_it(tmp_path, tmpdir_env):
    """Ctrl-C that lands in the clean-up (a run that just ended) waits for it: the
    folder, with a sentinel file the size of each output, is not left behind. (In a
    process of its own: Ctrl-C is the main thread's, and pytest's may not be this one.)"""
    probe = f"""
import os, shutil, signal
import tosa_vkshader
removing = shutil.rmtree
def interrupted_while_removing(path, *args, **kwargs):
    os.kill(os.getpid(), signal.SIGINT)
    removing(path, *args, **kwargs)
prepared = tosa_vkshader.prepare({str(MODEL)!r})
shutil.rmtree = interrupted_while_removing
try:
    prepared.close()
except KeyboardInterrupt:
    print("interrupted")
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout == "interrupted\n", done.stderr
    assert list(tmpdir_env.iterdir()) == []
