"""The reference tools as processes: the converter (and vgf_dump) and the scenario runner.

Each failure becomes a diagnostic with the tool's own error lines (:mod:`.tool_output`);
the runner is given a time limit and is stopped when it passes it (or when the caller
gives up on the run).
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import RunError
from .rules import CONVERTER_FAILED
from .tool_output import runner_outcome, tail
from .toolchain import Toolchain

if TYPE_CHECKING:
    from typing import Any

_TOOL_TIMEOUT = 60.0  # the converter and vgf_dump take a fraction of a second


def run_tool(command: list[str], cwd: Path, timeout: float,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          errors="replace", timeout=timeout, check=False)


def start_conversion(tools: Toolchain, text: str, workdir: Path) -> subprocess.Popen[str]:
    (workdir / "model.mlir").write_text(text, encoding="utf-8")
    return subprocess.Popen([tools.model_converter, "-i", "model.mlir", "-o", "model.vgf"],
                            cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace")


def stop_conversion(converter: subprocess.Popen[str]) -> None:
    """The converter is not needed (any more): it is killed, and its exit collected."""
    if converter.poll() is None:
        converter.kill()
    converter.communicate()


def finish_conversion(tools: Toolchain, converter: subprocess.Popen[str],
                       workdir: Path) -> dict[str, Any]:
    """What ``vgf_dump`` says of the VGF the converter wrote (its JSON document)."""
    try:
        output, _ = converter.communicate(timeout=_TOOL_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        converter.kill()
        converter.communicate()
        raise RunError([CONVERTER_FAILED.at(
            "", f"model-converter did not finish within {_TOOL_TIMEOUT:g} s")]) from exc
    if converter.returncode != 0 or not (workdir / "model.vgf").is_file():
        raise RunError([CONVERTER_FAILED.at(
            "", f"model-converter exited with {converter.returncode}:\n{tail(output)}")])
    done = run_tool([tools.vgf_dump, "-i", "model.vgf", "-o", "dump.json"], workdir,
                     _TOOL_TIMEOUT)
    if done.returncode != 0:
        raise RunError([CONVERTER_FAILED.at(
            "", f"vgf_dump could not read the VGF the converter wrote (exit "
                f"{done.returncode}):\n{tail(done.stderr + done.stdout)}")])
    return json.loads((workdir / "dump.json").read_text(encoding="utf-8"))


class Runner:
    """scenario-runner, started at once; its log goes to a file so that it never blocks
    on a full pipe while the check runs."""

    def __init__(self, tools: Toolchain, workdir: Path, env: dict[str, str],
                 timeout: float) -> None:
        (workdir / "out").mkdir(exist_ok=True)
        self.timeout = timeout
        self.started = time.monotonic()
        self.log_path = workdir / "runner.log"
        self._expired = False
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [tools.scenario_runner, "--scenario", "scenario.json", "--output", "out"],
                cwd=workdir, env=env, stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT)

    def wait(self) -> str | None:
        """The device it ran on, or :class:`RunError` on a failure or the timeout."""
        returncode = self._wait_until_exit_or_timeout()
        return runner_outcome(returncode, self._expired, self.log_path, self.timeout)

    def _wait_until_exit_or_timeout(self) -> int:
        """The exit status, known the moment the runner exits: a blocking wait, with a
        timer that kills the runner at the time limit (``Popen.wait(timeout=...)`` polls,
        sleeping up to 50 ms between looks)."""
        left = self.timeout - (time.monotonic() - self.started)
        watchdog = threading.Timer(max(left, 0.0), self._expire)
        watchdog.daemon = True
        watchdog.start()
        try:
            return self.process.wait()
        finally:
            watchdog.cancel()

    def _expire(self) -> None:
        self._expired = True
        self.process.kill()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
