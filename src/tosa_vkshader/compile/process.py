"""Run one compiler process with a time limit and a cap on how much it may print."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from dataclasses import dataclass

_CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class ProcessOutcome:
    returncode: int | None  # None when it never started or was killed by us
    output: str  # stdout and stderr together, decoded leniently
    timed_out: bool = False
    flooded: bool = False
    start_error: str | None = None

    @property
    def crashed(self) -> bool:
        """Ended by a signal (POSIX) or with a status glslc never uses."""
        rc = self.returncode
        return rc is not None and not self.timed_out and not self.flooded and rc not in (0, 1)


def wait_for(proc: subprocess.Popen, timeout: float) -> None:
    """Wait for the compiler to exit; raises :class:`subprocess.TimeoutExpired` when it
    runs longer than ``timeout``. The one place a limit meets the clock: tests replace it
    to stop a hanging compiler at a deterministic moment instead of racing a short limit."""
    proc.wait(timeout=timeout)


def run_compiler(argv: list[str], cwd: str, timeout: float, output_limit: int) -> ProcessOutcome:
    try:
        # Its own process group, so that a kill also reaches anything it started.
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=os.name == "posix")
    except OSError as exc:
        return ProcessOutcome(None, "", start_error=str(exc))

    def kill() -> None:
        if os.name == "posix":
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        else:
            proc.kill()
    chunks: list[bytes] = []
    flooded = threading.Event()

    def read() -> None:
        total = 0
        assert proc.stdout is not None
        while chunk := proc.stdout.read1(_CHUNK):
            if total < output_limit:
                chunks.append(chunk[: output_limit - total])
            total += len(chunk)
            if total > output_limit and not flooded.is_set():
                flooded.set()
                kill()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    timed_out = False
    try:
        wait_for(proc, timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        kill()
        proc.wait()
    reader.join(timeout=10)
    assert proc.stdout is not None
    proc.stdout.close()
    output = b"".join(chunks).decode("utf-8", "replace")
    is_flooded = flooded.is_set()
    rc = None if (timed_out or is_flooded) else proc.returncode
    return ProcessOutcome(rc, output, timed_out=timed_out and not is_flooded, flooded=is_flooded)
