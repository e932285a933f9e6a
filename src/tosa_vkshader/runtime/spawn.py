"""The reference tools started without the ``subprocess`` module, for `run`'s fast lane.

``subprocess`` loads ``selectors``, ``threading`` and more (7 ms) before it can start a
process; ``os.posix_spawn`` needs nothing the interpreter has not loaded. A tool starts
in a folder of its own (the converter names its input in its messages as it was given,
``model.mlir``), and ``posix_spawn`` has no such argument before Python 3.13: the
process changes its working directory around the call and back at once. That is safe
only in a process whose other threads never use relative paths, so only the command
line's fast lane (a process of its own, one thread) uses this module.

As ``subprocess.Popen`` does, the child gets SIGPIPE and SIGXFSZ back at their default
actions (Python ignores SIGPIPE) and none of this process's other files (Python opens
them non-inheritable). A tool is waited for by a pidfd, so its exit is seen the moment
it happens and a time limit needs no thread (``select`` is imported for the first wait).
"""

from __future__ import annotations

import os
import signal
import time


class Folder:
    """Where this process was when it started tools (kept open, to come back to)."""

    def __init__(self) -> None:
        self._home = os.open(".", getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY)

    def start(self, argv: list[str], cwd: str, env: dict[str, str] | os._Environ[str], *,
              stdin: str | None = None, output: str = os.devnull) -> Process:
        """Start ``argv`` in the folder ``cwd``; its standard output and error go to the
        file ``output`` (relative to ``cwd``), its input comes from ``stdin`` when given
        (else this process's)."""
        actions = [(os.POSIX_SPAWN_OPEN, 1, output,
                    os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666),
                   (os.POSIX_SPAWN_DUP2, 1, 2)]
        if stdin is not None:
            actions.append((os.POSIX_SPAWN_OPEN, 0, stdin, os.O_RDONLY, 0))
        os.chdir(cwd)
        try:
            return Process(os.posix_spawn(argv[0], argv, env, file_actions=actions,
                                          setsigdef=(signal.SIGPIPE, signal.SIGXFSZ)))
        finally:
            os.fchdir(self._home)

    def close(self) -> None:
        os.close(self._home)


class Process:
    """A started tool; ``returncode`` is its exit status once collected (negative: the
    signal that killed it)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def wait(self, timeout: float) -> int | None:
        """The exit status, or None when the tool still runs after ``timeout`` seconds."""
        if self.returncode is None:
            import select

            try:
                handle = os.pidfd_open(self.pid)
            except (AttributeError, OSError):  # no pidfd (Linux before 5.3)
                return self._poll(timeout)
            try:
                ready, _, _ = select.select([handle], [], [], max(timeout, 0.0))
            finally:
                os.close(handle)
            if ready:
                self._collect(0)
        return self.returncode

    def poll(self) -> int | None:
        """The exit status, or None while the tool runs (it is not waited for)."""
        if self.returncode is None:
            self._collect(os.WNOHANG)
        return self.returncode

    def _poll(self, timeout: float) -> int | None:
        deadline = time.monotonic() + timeout
        while not self._collect(os.WNOHANG) and time.monotonic() < deadline:
            time.sleep(0.002)
        return self.returncode

    def _collect(self, flags: int) -> bool:
        pid, status = os.waitpid(self.pid, flags)
        if pid:
            self.returncode = os.waitstatus_to_exitcode(status)
        return bool(pid)

    def kill(self) -> int:
        """Stop the tool if it still runs; its exit status."""
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)  # an exited tool not yet collected takes it
            self._collect(0)
        assert self.returncode is not None
        return self.returncode
