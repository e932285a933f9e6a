"""Human-readable output: ``path:line:col: error[CODE] message``, the line, a caret, a hint."""

from __future__ import annotations

from ..api import Report
from ..diagnostics import Diagnostic, Severity
from .fixes import fix_for
from .printable import printable
from .shader_source import shader_source

_COLORS = {Severity.ERROR: "\033[1;31m", Severity.WARNING: "\033[1;33m",
           Severity.INFO: "\033[1;36m"}
_RESET = "\033[0m"
_MAX_SHOWN = 160


class _Lines:
    """The lines of one report's file and of its shader values, each split once.

    Every diagnostic shows a line; on a minified file (one line of megabytes) finding it
    again for each diagnostic made the report quadratic.
    """

    def __init__(self, report: Report) -> None:
        self.report = report
        self._file: dict[int, str] = {}
        self._values: dict[int, list[str]] = {}

    def file_line(self, number: int) -> str:
        if number not in self._file:
            self._file[number] = self.report.line_text(number)
        return self._file[number]

    def value_lines(self, value: str) -> list[str]:
        key = id(value)  # the values live in the report's source for the whole render
        if key not in self._values:
            self._values[key] = value.split("\n")
        return self._values[key]


def _clip(text: str, column: int) -> tuple[str, int]:
    """At most _MAX_SHOWN characters of ``text`` around 1-based ``column``, and the
    offset of the first one shown."""
    start = max(0, column - 1 - _MAX_SHOWN // 2) if len(text) > _MAX_SHOWN else 0
    return text[start:start + _MAX_SHOWN], start


def _shader_line(report: Report, diag: Diagnostic, lines: _Lines) -> tuple[int, str] | None:
    """(line number, text) of the shader source line the diagnostic is about. A problem
    inside a one-line ``shader_code`` reads fine in place: None for it."""
    position = diag.shader_position
    value = shader_source(report, diag) if position is not None else None
    if value is None or (diag.shader_place is None and "\n" not in value):
        return None
    split = lines.value_lines(value)
    if 1 <= position.line <= len(split):
        return position.line, split[position.line - 1].rstrip("\r")
    return None


def _show_shader_line(out: list[str], number: int, text: str, column: int) -> None:
    shown, start = _clip(text, column)
    out.append(f"  {number:>4} | {printable(shown)}   (line {number} of `shader_code`)")
    out.append(f"       | {_pad(shown, column - 1 - start)}^")


def render_text(reports: list[Report], *, color: bool = False) -> str:
    out: list[str] = []
    totals = {s: 0 for s in Severity}
    fixables = 0
    for report in reports:
        lines = _Lines(report)
        for diag in report.diagnostics:
            totals[diag.severity] += 1
            loc = diag.location
            where = printable(str(loc) if loc else report.path or "<input>")
            label = diag.severity.label
            if color:
                label = f"{_COLORS[diag.severity]}{label}{_RESET}"
            out.append(f"{where}: {label}[{diag.code}] {printable(diag.message)}")
            shader_line = _shader_line(report, diag, lines)
            if shader_line is not None and diag.shader_place is None:
                # Inside an embedded shader the JSON line is one long string: show the
                # shader's own line instead.
                _show_shader_line(out, *shader_line, diag.shader_position.column)
                shader_line = None
            elif loc:
                line = lines.file_line(loc.line)
                if line:
                    shown, start = _clip(line, loc.column)
                    width = 1
                    if loc.end_line == loc.line and loc.end_column:
                        width = max(1, min(loc.end_column - loc.column, len(shown)))
                    out.append(f"  {loc.line:>4} | {printable(shown)}")
                    out.append(f"       | {_pad(shown, loc.column - 1 - start)}{'^' * width}")
            if shader_line is not None:  # a finding at a key, about this shader line
                _show_shader_line(out, *shader_line, diag.shader_position.column)
            if diag.shader_place is not None and diag.shader_place.instruction:
                out.append(f"       = shader_code: {printable(diag.shader_place.instruction)}")
            fixable = fix_for(report, diag) is not None
            fixables += fixable
            if diag.hint:
                out.append(f"       = help: {printable(diag.hint)}" + (" [*]" if fixable else ""))
    files = len(reports)
    summary = (f"{totals[Severity.ERROR]} error(s), {totals[Severity.WARNING]} warning(s), "
               f"{totals[Severity.INFO]} note(s) in {files} file(s)")
    out.append(("" if not out else "\n") + summary)
    if fixables:  # as ruff does: [*] marks what the fix command repairs
        out.append(f"[*] {fixables} fixable with `tosa-vkshader fix`")
    return "\n".join(out) + "\n"


def _pad(shown: str, before: int) -> str:
    """Spaces up to the caret: as wide as the escaped text before it."""
    return " " * len(printable(shown[:max(0, before)]))
