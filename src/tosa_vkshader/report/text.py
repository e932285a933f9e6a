"""Human-readable output: ``path:line:col: error[CODE] message``, the line, a caret, a hint."""

from __future__ import annotations

from ..api import Report
from ..diagnostics import Severity

_COLORS = {Severity.ERROR: "\033[1;31m", Severity.WARNING: "\033[1;33m",
           Severity.INFO: "\033[1;36m"}
_RESET = "\033[0m"
_MAX_SHOWN = 160


def render_text(reports: list[Report], *, color: bool = False) -> str:
    out: list[str] = []
    totals = {s: 0 for s in Severity}
    for report in reports:
        for diag in report.diagnostics:
            totals[diag.severity] += 1
            loc = diag.location
            where = str(loc) if loc else report.path or "<input>"
            label = diag.severity.label
            if color:
                label = f"{_COLORS[diag.severity]}{label}{_RESET}"
            out.append(f"{where}: {label}[{diag.code}] {diag.message}")
            if loc:
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
            if diag.hint:
                out.append(f"       = help: {diag.hint}")
    files = len(reports)
    summary = (f"{totals[Severity.ERROR]} error(s), {totals[Severity.WARNING]} warning(s), "
               f"{totals[Severity.INFO]} note(s) in {files} file(s)")
    out.append(("" if not out else "\n") + summary)
    return "\n".join(out) + "\n"
