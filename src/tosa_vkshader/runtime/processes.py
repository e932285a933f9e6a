"""The reference tools as processes: the converter followed by ``vgf_dump``, and the
scenario runner. The one process layer of `run`.

Tools are started with ``os.posix_spawn`` (the ``subprocess`` module costs 5 ms to import
before a first process could start, and the converter is the first step of every run),
given absolute paths, so no working directory has to be chosen for them, and their output
goes to a log file in the work directory (a full pipe never blocks them). A tool is
waited for through a pidfd, so its exit is seen the moment it happens and a time limit
needs no polling. The converter and ``vgf_dump`` run one after the other in a thread of
their own, started as soon as the model is written: what the run prepares meanwhile (the
model's signature, the inputs, the configuration) overlaps them.

Each failure becomes a diagnostic with the tool's own error lines (:mod:`.tool_output`,
imported with the diagnostics when there is one to make: the converter is started before
they are loaded).
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import RunError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .toolchain import Toolchain

# The converter and vgf_dump take a fraction of a second; a minute means they hang.
TOOL_TIMEOUT = 60.0


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back until the block ends (then delivered): a tool started
    in the block is recorded by its caller before Ctrl-C or a termination can unwind past
    it, so it is always stopped. Only the main thread receives them."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class Tool:
    """One started tool; ``returncode`` is its exit status once collected (negative: the
    signal that killed it)."""

    def __init__(self, argv: list[str], log: Path, env: Mapping[str, str] | None = None) -> None:
        actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 1, str(log), os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                    0o644),
                   (os.POSIX_SPAWN_DUP2, 1, 2)]
        # As subprocess does: the child gets SIGPIPE and SIGXFSZ back at their defaults
        # (and no signal held back, whatever this thread holds).
        self.pid = os.posix_spawn(argv[0], argv, os.environ if env is None else env,
                                  file_actions=actions, setsigmask=(),
                                  setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
        self.log = log
        self.returncode: int | None = None
        self._lock = threading.Lock()

    def wait(self, timeout: float | None = None) -> int | None:
        """The exit status, or None while the tool still runs after ``timeout`` seconds
        (None: as long as it takes)."""
        if self.returncode is None and timeout is not None:
            try:
                handle = os.pidfd_open(self.pid)
            except OSError:  # no pidfd (Linux before 5.3): look every 2 ms
                deadline = time.monotonic() + timeout
                while not self._collect(os.WNOHANG) and time.monotonic() < deadline:
                    time.sleep(0.002)
                return self.returncode
            try:
                ready, _, _ = select.select([handle], [], [], max(timeout, 0.0))
            finally:
                os.close(handle)
            if not ready:
                return None
        self._collect(0)
        return self.returncode

    def _collect(self, flags: int) -> bool:
        with self._lock:
            if self.returncode is None:
                try:
                    pid, status = os.waitpid(self.pid, flags)
                except ChildProcessError:  # collected by another thread meanwhile
                    return self.returncode is not None
                if pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
            return self.returncode is not None

    def kill(self) -> None:
        """Stop the tool if it still runs, and collect it."""
        if self.returncode is None:
            try:
                os.kill(self.pid, signal.SIGKILL)  # an exited, uncollected tool takes it
            except ProcessLookupError:
                pass
            self._collect(0)

    def output(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""


class Conversion:
    """model-converter (TOSA MLIR -> VGF), then ``vgf_dump`` (the VGF's interface as JSON),
    in a thread that starts each the moment it can. ``model`` is the model's text;
    ``shown_as`` is how the converter's messages should name the model file."""

    def __init__(self, tools: Toolchain, workdir: Path, model: str, shown_as: str) -> None:
        self.workdir = workdir
        self.shown_as = shown_as
        self._tools = tools
        self._current: Tool | None = None
        self._stopped = False
        self._failure: RunError | None = None
        self._lock = threading.Lock()
        (workdir / "model.mlir").write_text(model, encoding="utf-8")
        self._start([tools.model_converter, "-i", str(workdir / "model.mlir"), "-o",
                     str(workdir / "model.vgf")], "converter.log")
        self._thread = threading.Thread(target=self._chain, name="tosa-vkshader-convert",
                                        daemon=True)
        self._thread.start()

    def _start(self, argv: list[str], log: str) -> Tool | None:
        with self._lock:
            if self._stopped:
                return None
            self._current = Tool(argv, self.workdir / log)
            return self._current

    def _chain(self) -> None:
        converter = self._current
        assert converter is not None
        code = converter.wait(TOOL_TIMEOUT)
        if code is None:
            converter.kill()
            from .rules import CONVERTER_FAILED

            self._failure = RunError([CONVERTER_FAILED.at(
                "", f"model-converter did not finish within {TOOL_TIMEOUT:g} s")])
            return
        if self._stopped:
            return
        if code != 0 or not (self.workdir / "model.vgf").is_file():
            from .rules import CONVERTER_FAILED
            from .tool_output import tool_failure

            output = converter.output().replace(str(self.workdir / "model.mlir"),
                                                self.shown_as)
            self._failure = tool_failure(CONVERTER_FAILED, f"model-converter exited with {code}",
                                         output)
            return
        dump = self._start([self._tools.vgf_dump, "-i", str(self.workdir / "model.vgf"),
                            "-o", str(self.workdir / "dump.json")], "vgf_dump.log")
        if dump is None:
            return
        code = dump.wait(TOOL_TIMEOUT)
        if code != 0:
            from .rules import CONVERTER_FAILED
            from .tool_output import tool_failure

            dump.kill()
            self._failure = tool_failure(
                CONVERTER_FAILED, f"vgf_dump could not read the VGF the converter wrote "
                                  f"(exit {code})", dump.output())

    def result(self) -> Path:
        """``dump.json``, once both tools have finished; :class:`RunError` when one failed."""
        self._thread.join()
        if self._failure is not None:
            raise self._failure
        return self.workdir / "dump.json"

    def stop(self) -> None:
        """Stop whichever tool runs (the conversion is not needed any more)."""
        with self._lock:
            self._stopped = True
            current = self._current
        if current is not None:
            current.kill()
        self._thread.join()


class Runner:
    """scenario-runner on ``scenario.json`` of the work directory, started at once, its
    log in ``runner.log``."""

    def __init__(self, tools: Toolchain, workdir: Path, env: Mapping[str, str],
                 timeout: float) -> None:
        self.timeout = timeout
        self.started = time.monotonic()
        self.log_path = workdir / "runner.log"
        self.process = Tool([tools.scenario_runner, "--scenario",
                             str(workdir / "scenario.json"), "--output",
                             str(workdir / "out")], self.log_path, env)

    def wait(self) -> str | None:
        """The device it ran on, or :class:`RunError` on a failure or the timeout."""
        from .tool_output import runner_outcome

        left = self.timeout - (time.monotonic() - self.started)
        code = self.process.wait(max(left, 0.0))
        expired = code is None
        if expired:
            self.process.kill()
            code = self.process.returncode
        assert code is not None
        return runner_outcome(code, expired, self.log_path, self.timeout)

    def stop(self) -> None:
        self.process.kill()
