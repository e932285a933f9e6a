"""A command stopped while it writes a file leaves no temporary file and no half-written
file behind (issue 30): SIGTERM and Ctrl-C delivered at each step of the write, by a
process that stops itself there (no timing race), for `fix`, `fix --embed spirv` and
`check -o`."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tosa_vkshader import fsutil
from tosa_vkshader.cli import main

from conftest import FIXTURES

# Runs the command line (argv[4:]); stops at write step argv[1] of file argv[2], says so
# on file descriptor argv[3], and waits there for the signal.
DRIVER = """
import os, signal, sys
from tosa_vkshader import cli, fsutil

step, target, said = sys.argv[1], os.path.realpath(sys.argv[2]), int(sys.argv[3])

def stop_here(name, path):
    if name == step and str(path) == target:
        os.write(said, name.encode() + b"\\n")
        while True:
            signal.pause()

fsutil.on_write_step = stop_here
sys.argv = ["tosa-vkshader", *sys.argv[4:]]
cli.program()
"""

TYPO = FIXTURES / "codegen" / "fix" / "near_miss_keys.json"
GLSL = FIXTURES / "codegen" / "fix" / "glsl_to_embed.json"
# Each command's source file and command line, run in a folder holding the file as
# op.json; `check -o` writes out.txt.
COMMANDS = {
    "fix": (TYPO, ["fix", "op.json"]),
    "fix --embed spirv": (GLSL, ["fix", "--embed", "spirv", "op.json"]),
    "check -o": (TYPO, ["check", "-o", "out.txt", "op.json"]),
}
SIGNALS = {"SIGTERM": (signal.SIGTERM, 143), "SIGINT": (signal.SIGINT, 130)}
# Every command with SIGTERM, and Ctrl-C (which takes the same way out) with one.
CASES = [(command, "SIGTERM") for command in COMMANDS] + [("fix", "SIGINT")]


def _environment(cache: Path) -> dict[str, str]:
    return {**os.environ, "TOSA_VKSHADER_CACHE_DIR": str(cache)}


def _stopped_at(step: str, written: Path, argv: list[str], signum: int, cwd: Path,
                cache: Path) -> subprocess.CompletedProcess:
    read, write = os.pipe()
    with subprocess.Popen([sys.executable, "-c", DRIVER, step, str(written), str(write),
                           *argv], cwd=cwd, pass_fds=(write,), env=_environment(cache),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        os.close(write)
        with os.fdopen(read, "rb") as said:
            reached = said.readline().decode().strip()
        if reached:
            proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
    assert reached == step, err.decode()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def _completed(command: str, folder: Path, cache: Path) -> dict[str, bytes]:
    """What the command leaves when nothing stops it: file name -> content."""
    source, argv = COMMANDS[command]
    shutil.copy(source, folder / "op.json")
    subprocess.run([sys.executable, "-m", "tosa_vkshader", *argv], cwd=folder,
                   capture_output=True, check=False, env=_environment(cache))
    return _files(folder)


@pytest.mark.parametrize(("command", "how"), CASES)
def test_a_signal_at_each_step_of_the_write_leaves_no_file_behind(tmp_path, command, how):
    source, argv = COMMANDS[command]
    signum, code = SIGNALS[how]
    before = source.read_bytes()
    cache = tmp_path / "cache"
    (tmp_path / "done").mkdir()
    finished = _completed(command, tmp_path / "done", cache)
    assert finished != {"op.json": before}  # the command does write something
    for step in fsutil.WRITE_STEPS:
        folder = tmp_path / step
        folder.mkdir()
        shutil.copy(source, folder / "op.json")
        written = folder / ("out.txt" if command == "check -o" else "op.json")
        result = _stopped_at(step, written, argv, signum, folder, cache)
        assert result.returncode == code, result.stderr.decode()
        assert b"Traceback" not in result.stderr
        left = _files(folder)
        if step == "replaced":  # the new file was in place when the signal came
            assert left == finished, step
        else:  # the original untouched, no output, nothing else
            assert left == {"op.json": before}, step


def test_a_failing_write_leaves_no_temporary_file(tmp_path, monkeypatch, capsys):
    """An exception in the middle of the write (here: the disk is full) takes the same way
    out: the original stays, the temporary file goes."""
    op = tmp_path / "op.json"
    shutil.copy(TYPO, op)

    def disk_full(step, path):
        if step == "written":
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(fsutil, "on_write_step", disk_full)
    assert main(["fix", str(op)]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["op.json"]
    assert op.read_bytes() == TYPO.read_bytes()
