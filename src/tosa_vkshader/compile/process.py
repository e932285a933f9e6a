"""Run one compiler process with limits on time, memory and how much it may print.

Memory: the process's address space is capped (RLIMIT_AS, set in the child before the
compiler starts). A compiler that reaches the cap fails to allocate and stops; its peak
resident size, read when it is reaped, tells that failure from an ordinary one.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import threading
from dataclasses import dataclass

_CHUNK = 64 * 1024
# A compiler that failed after its resident size reached this share of the address-space
# cap ran out of memory (the rest of the cap goes to code, stacks and reservations).
_NEAR_LIMIT = 0.7


@dataclass(frozen=True, slots=True)
class ProcessOutcome:
    returncode: int | None  # None when it never started or was killed by us
    output: str  # stdout and stderr together, decoded leniently
    timed_out: bool = False
    flooded: bool = False
    start_error: str | None = None
    out_of_memory: bool = False

    @property
    def crashed(self) -> bool:
        """Ended by a signal (POSIX) or with a status glslc never uses."""
        rc = self.returncode
        return rc is not None and not self.timed_out and not self.flooded and rc not in (0, 1)


def memory_cap(limit: int | None) -> int | None:
    """The address-space cap for a compiler: ``limit``, but never above the limit this
    process already has (raising a hard limit is refused, and an exception in the child
    would fail the compile for a reason not its own). None: no cap."""
    if not limit or os.name != "posix":
        return None
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    return limit if hard == resource.RLIM_INFINITY else min(limit, hard)


def limit_memory(cap: int | None):
    """A ``preexec_fn`` capping the child's address space at ``cap`` bytes (or None)."""
    if cap is None:
        return None
    import resource

    def apply() -> None:  # runs in the child, between fork and exec
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    return apply


def wait_for(proc: subprocess.Popen, timeout: float) -> int | None:
    """Wait for the compiler to exit; raises :class:`subprocess.TimeoutExpired` when it
    runs longer than ``timeout``. The one place a limit meets the clock: tests replace it
    to stop a hanging compiler at a deterministic moment instead of racing a short limit.

    Returns the process's peak resident size in bytes when the platform tells it
    (``wait4``), else None.
    """
    if not hasattr(os, "wait4"):
        proc.wait(timeout=timeout)
        return None
    reaped: list[tuple[int, int]] = []

    def reap() -> None:  # wait4, unlike waitpid, gives the child's own peak resident size
        try:
            _pid, status, usage = os.wait4(proc.pid, 0)
        except ChildProcessError:  # reaped by proc.wait() after a timeout
            return
        reaped.append((status, usage.ru_maxrss * 1024))  # Linux counts KiB

    waiter = threading.Thread(target=reap, daemon=True)
    waiter.start()
    waiter.join(timeout)
    if waiter.is_alive():  # it reaps the process once the caller has killed it
        raise subprocess.TimeoutExpired(proc.args, timeout)
    if not reaped:
        proc.wait()
        return None
    status, peak = reaped[0]
    proc.returncode = os.waitstatus_to_exitcode(status)
    return peak


def run_compiler(argv: list[str], cwd: str, timeout: float, output_limit: int,
                 memory_limit: int | None = None) -> ProcessOutcome:
    cap = memory_cap(memory_limit)
    try:
        # Its own process group, so that a kill also reaches anything it started.
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=os.name == "posix",
                                preexec_fn=limit_memory(cap))
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
        assert isinstance(proc.stdout, io.BufferedReader)  # (a pipe, buffered by default)
        while chunk := proc.stdout.read1(_CHUNK):
            if total < output_limit:
                chunks.append(chunk[: output_limit - total])
            total += len(chunk)
            if total > output_limit and not flooded.is_set():
                flooded.set()
                kill()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    timed_out, peak = False, None
    try:
        peak = wait_for(proc, timeout)
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
    out_of_memory = bool(cap and rc != 0 and peak is not None and peak >= _NEAR_LIMIT * cap)
    return ProcessOutcome(rc, output, timed_out=timed_out and not is_flooded, flooded=is_flooded,
                          out_of_memory=out_of_memory and not timed_out and not is_flooded)
