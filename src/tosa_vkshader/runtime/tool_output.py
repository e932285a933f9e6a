"""What the reference tools' exits and messages mean: the scenario runner's outcome (the
device it ran on, or the diagnostic of its failure or timeout) and the lines of a tool's
output worth showing.

The runner escapes the line breaks of the messages it passes on (its shader compiler's
errors arrive as one line with ``\x0a`` in it): they are shown as the lines they are.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import RunError
from .rules import RUNNER_FAILED, RUNNER_TIMEOUT
from .toolchain import no_device

if TYPE_CHECKING:
    from ..diagnostics import Rule

_DRIVER_ERRORS = ("ErrorIncompatibleDriver", "ErrorInitializationFailed",
                  "libvulkan.so", "Failed to detect any valid GPUs")


# The runner's prefix on each line of its log ("2026-01-01 12:00:00,123 [Scenario-Runner] ").
_STAMP = re.compile(r"^\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ \[[\w-]+\] ")


def tool_lines(output: str, lines: int = 12) -> tuple[str, ...]:
    """The last error lines of a tool's ``output`` (its last lines when none says error),
    each a line of its own (the runner's escaped line breaks undone, its time stamps
    left out)."""
    kept = [_STAMP.sub("", line).rstrip()
            for line in output.replace("\\x0a", "\n").splitlines() if line.strip()]
    errors = [line for line in kept if "ERROR" in line or "error" in line]
    return tuple((errors or kept)[-lines:])


def tool_failure(rule: Rule, said: str, output: str, hint: str | None = None) -> RunError:
    """A tool's failure: the diagnostic names its first error line; the error carries
    all of them, for the command line to show as the lines they are."""
    lines = tool_lines(output)
    first = lines[0] if lines else "(no output)"
    return RunError([rule.at("", f"{said}: {first}", hint=hint)], details=lines)


def runner_outcome(returncode: int, expired: bool, log_path: Path,
                   timeout: float) -> str | None:
    """The device a scenario runner that exited with ``returncode`` ran on (its log says),
    or :class:`RunError` saying why it failed; ``expired``: it was killed at ``timeout``."""
    if expired:
        raise RunError([RUNNER_TIMEOUT.at(
            "", f"scenario-runner did not finish within {timeout:g} s and was "
                "stopped", hint="raise it with --timeout SECONDS, or lower "
                                "workgroup_sizes")])
    output = log_path.read_text(encoding="utf-8", errors="replace")
    if returncode != 0:
        if any(marker in output for marker in _DRIVER_ERRORS):
            raise RunError([no_device("the Vulkan loader found no usable device "
                                      f"({'; '.join(tool_lines(output, 2))})")])
        how = f"was killed by signal {-returncode}" if returncode < 0 else \
            f"exited with {returncode}"
        raise tool_failure(RUNNER_FAILED, f"scenario-runner {how}", output,
                           hint="--keep-workdir keeps scenario.json and the files to "
                                "reproduce it")
    return _device_name(output)


def _device_name(log: str) -> str | None:
    for line in log.splitlines():
        if "INFO: Device: " in line:
            return line.split("INFO: Device: ", 1)[1].split(", Type:", 1)[0].strip()
    return None

