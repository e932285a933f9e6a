"""Run the command line as a user would, in a child process with a memory ceiling.

A hostile input that makes the checker allocate gigabytes ends in a MemoryError (or a
kill) inside the ceiling instead of taking the test machine with it, so the tests can
assert "bounded" without measuring time.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Well above what a real check needs (the interpreter, numpy-free imports, one file).
MEMORY_CEILING = 1 << 30


def _limit_memory() -> None:  # runs in the child between fork and exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CEILING, MEMORY_CEILING))


def run_cli(*argv: str, cwd: Path | None = None, stdin: bytes | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "NO_COLOR": "1",
                   **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "tosa_vkshader", *argv], cwd=cwd, input=stdin,
        capture_output=True, env=environment, preexec_fn=_limit_memory, check=False,
        timeout=120,
    )


def text(result: subprocess.CompletedProcess) -> str:
    return (result.stdout + result.stderr).decode("utf-8", "replace")
