"""`check` shares many files among processes (one per core, forked): the output must be
exactly what one process prints, in every format, shader lines included; a worker that
fails costs time, never findings."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from hostile_helpers import ROOT, run_cli

from tosa_vkshader.forks import map_in_forks

from conftest import FIXTURES

VALID = sorted((FIXTURES / "glsl" / "valid").glob("*.json"))
INVALID = sorted(p for p in (FIXTURES / "glsl" / "invalid").glob("*.json")
                 if p.name != "expected.json")
PLAIN = sorted(p for p in (FIXTURES / "invalid").glob("*.json") if p.name != "expected.json")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """300 files: shader ops with and without mistakes (compile errors inside the shader
    among them) and plain attribute files, repeated, as a repository holds them."""
    folder = tmp_path_factory.mktemp("many")
    sources = VALID + INVALID + PLAIN
    for number in range(300):
        shutil.copy(sources[number % len(sources)], folder / f"op_{number:03d}.json")
    return folder


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_many_files_in_two_processes_print_what_one_process_prints(corpus, fmt, tmp_path):
    env = {"TOSA_VKSHADER_CACHE_DIR": str(tmp_path / "cache")}
    one = run_cli("check", "--format", fmt, "-j", "1", str(corpus), env=env)
    two = run_cli("check", "--format", fmt, "-j", "2", str(corpus), env=env)
    assert one.returncode == two.returncode == 1
    assert two.stderr == one.stderr
    assert two.stdout == one.stdout
    if fmt == "text":  # the shader's own line is shown for compile errors in either
        assert b"of `shader_code`)" in two.stdout
        # and under a cross-check finding, the declaration it disagrees with
        assert b"   4 | layout(set = 0, binding = 2) writeonly buffer Output" in two.stdout
    if fmt == "json":
        findings = [d for f in json.loads(two.stdout)["files"] for d in f["diagnostics"]]
        assert len(findings) > 300
        assert any(d["shader_location"] for d in findings)


def test_a_job_count_that_is_not_a_whole_number_is_a_usage_error(corpus):
    for bad in ("0", "-1", "two"):
        result = run_cli("check", "-j", bad, str(corpus))
        assert result.returncode == 2
        assert b"--jobs" in result.stderr and bad.encode() in result.stderr


_IN_A_FRESH_PROCESS = """
import os, sys
from tosa_vkshader.forks import map_in_forks
parent = os.getpid()

def work(share):
    if os.getpid() != parent and share[0] == 3:
        os._exit(9)  # a worker that dies without a word
    if os.getpid() != parent and share[0] == 5:
        raise RuntimeError("a worker that fails")
    return os.getpid(), [n * 10 for n in share]

results = map_in_forks(work, [[1, 2], [3, 4], [5, 6], [7]])
print([values for _, values in results])
print(len({pid for pid, _ in results}), sum(pid == parent for pid, _ in results))
"""


def test_each_share_runs_in_a_process_and_a_failed_share_is_done_again_here():
    # (pytest-xdist runs threads in this process, where forking is refused: a fresh one)
    done = subprocess.run([sys.executable, "-c", _IN_A_FRESH_PROCESS], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                          check=True, timeout=60)
    values, processes = done.stdout.splitlines()
    assert values == "[[10, 20], [30, 40], [50, 60], [70]]"
    # The first share and the two redone ones ran here, the fourth in its own process.
    assert processes == "2 3"


def test_without_fork_the_shares_are_done_in_order_here():
    import threading

    gate = threading.Event()
    thread = threading.Thread(target=gate.wait)  # another thread: fork is not safe
    thread.start()
    try:
        assert map_in_forks(lambda share: (os.getpid(), sum(share)), [[1], [2, 3]]) == [
            (os.getpid(), 1), (os.getpid(), 5)]
    finally:
        gate.set()
        thread.join()


def test_findings_cross_a_process_boundary_whole():
    # Workers send findings back pickled: every field must survive.
    import pickle

    from tosa_vkshader.diagnostics import (
        Diagnostic,
        InnerPosition,
        Location,
        Severity,
        ShaderPlace,
    )
    diag = Diagnostic("VKS412", Severity.WARNING, "message", "/output_0_binding", "hint",
                      Location("op.json", 3, 5, 3, 9, "logical"), InnerPosition(2, 7), True,
                      '"x"', "lavapipe", ShaderPlace(InnerPosition(4, 1), "OpDecorate %b"))
    for value in (diag, diag.location, diag.inner, diag.shader_place):
        copy = pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        assert copy == value and type(copy) is type(value)
