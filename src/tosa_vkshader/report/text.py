"""Human-readable output: ``path:line:col: error[CODE] message``, the line, a caret, a hint."""

from __future__ import annotations

from dataclasses import replace

from ..api import Report
from ..diagnostics import Diagnostic, Severity, resolve_pointer
from .fixes import fix_for

_COLORS = {Severity.ERROR: "\033[1;31m", Severity.WARNING: "\033[1;33m",
           Severity.INFO: "\033[1;36m"}
_RESET = "\033[0m"
_MAX_SHOWN = 160


def _shader_line(report: Report, diag: Diagnostic) -> tuple[int, str] | None:
    """(line number, text) of the shader source line a diagnostic points into."""
    if diag.inner is None or report.source is None:
        return None
    ops = report.source.ops
    for op in ops:
        # Pointers are relative to each op's attributes: in a file of several ops (a model,
        # a list) the op is the one that places the diagnostic where it is.
        if len(ops) > 1 and op.locate(replace(diag, location=None)) != diag.location:
            continue
        value = resolve_pointer(op.attributes, diag.pointer[len(op.base):]) \
            if diag.pointer.startswith(op.base) else None
        if isinstance(value, str) and "\n" in value:  # one-line values read fine in place
            lines = value.split("\n")
            if 1 <= diag.inner.line <= len(lines):
                return diag.inner.line, lines[diag.inner.line - 1].rstrip("\r")
    return None


def render_text(reports: list[Report], *, color: bool = False) -> str:
    out: list[str] = []
    totals = {s: 0 for s in Severity}
    fixables = 0
    for report in reports:
        for diag in report.diagnostics:
            totals[diag.severity] += 1
            loc = diag.location
            where = str(loc) if loc else report.path or "<input>"
            label = diag.severity.label
            if color:
                label = f"{_COLORS[diag.severity]}{label}{_RESET}"
            out.append(f"{where}: {label}[{diag.code}] {diag.message}")
            shader_line = _shader_line(report, diag)
            if shader_line is not None:
                # Inside an embedded shader the JSON line is one long string: show the
                # shader's own line instead.
                number, text = shader_line
                column = diag.inner.column
                start = max(0, column - 1 - _MAX_SHOWN // 2) if len(text) > _MAX_SHOWN else 0
                key = diag.pointer.rsplit("/", 1)[-1]
                out.append(f"  {number:>4} | {text[start:start + _MAX_SHOWN]}   "
                           f"(line {number} of `{key}`)")
                out.append(f"       | {' ' * max(0, column - 1 - start)}^")
            elif loc:
                line = report.line_text(loc.line)
                if line:
                    start = 0
                    if len(line) > _MAX_SHOWN:
                        start = max(0, loc.column - 1 - _MAX_SHOWN // 2)
                    shown = line[start:start + _MAX_SHOWN]
                    width = 1
                    if loc.end_line == loc.line and loc.end_column:
                        width = max(1, min(loc.end_column - loc.column, len(shown)))
                    out.append(f"  {loc.line:>4} | {shown}")
                    out.append(f"       | {' ' * (loc.column - 1 - start)}{'^' * width}")
            fixable = fix_for(report, diag) is not None
            fixables += fixable
            if diag.hint:
                out.append(f"       = help: {diag.hint}" + (" [*]" if fixable else ""))
    files = len(reports)
    summary = (f"{totals[Severity.ERROR]} error(s), {totals[Severity.WARNING]} warning(s), "
               f"{totals[Severity.INFO]} note(s) in {files} file(s)")
    out.append(("" if not out else "\n") + summary)
    if fixables:  # as ruff does: [*] marks what the fix command repairs
        out.append(f"[*] {fixables} fixable with `tosa-vkshader fix`")
    return "\n".join(out) + "\n"
