"""Human-readable output: ``path:line:col: error[CODE] message``, the line, a caret, a hint."""

from __future__ import annotations

from ..checked import Report
from ..diagnostics import Applicability, Severity
from .printable import printable

_COLORS = {Severity.ERROR: "\033[1;31m", Severity.WARNING: "\033[1;33m",
           Severity.INFO: "\033[1;36m"}
_RESET = "\033[0m"
_MAX_SHOWN = 160


def _clip(text: str, column: int) -> tuple[str, int]:
    """At most _MAX_SHOWN characters of ``text`` around 1-based ``column``, and the
    offset of the first one shown."""
    start = max(0, column - 1 - _MAX_SHOWN // 2) if len(text) > _MAX_SHOWN else 0
    return text[start:start + _MAX_SHOWN], start


def _show_shader_line(out: list[str], number: int, text: str, column: int) -> None:
    shown, start = _clip(text, column)
    out.append(f"  {number:>4} | {printable(shown)}   (line {number} of `shader_code`)")
    out.append(f"       | {_pad(shown, column - 1 - start)}^")


def render_text(reports: list[Report], *, color: bool = False) -> str:
    out: list[str] = []
    totals = {s: 0 for s in Severity}
    fixable = dict.fromkeys(Applicability, 0)
    for report in reports:
        file_lines: dict[int, str] = {}  # each line asked for once (a minified file
        # is one line of megabytes: finding it for every diagnostic was quadratic)
        for diag in report.diagnostics:
            totals[diag.severity] += 1
            loc = diag.location
            where = printable(str(loc) if loc else report.path or "<input>")
            label = diag.severity.label
            if color:
                label = f"{_COLORS[diag.severity]}{label}{_RESET}"
            out.append(f"{where}: {label}[{diag.code}] {printable(diag.message)}")
            shader_line = report.shader_line(diag)
            column = diag.shader_position.column if diag.shader_position is not None else 1
            if shader_line is not None and diag.shader_place is None:
                # Inside an embedded shader the JSON line is one long string: show the
                # shader's own line instead.
                _show_shader_line(out, *shader_line, column)
                shader_line = None
            elif loc:
                line = file_lines.get(loc.line)
                if line is None:
                    line = file_lines[loc.line] = report.line_text(loc.line)
                if line:
                    shown, start = _clip(line, loc.column)
                    width = 1
                    if loc.end_line == loc.line and loc.end_column:
                        width = max(1, min(loc.end_column - loc.column, len(shown)))
                    out.append(f"  {loc.line:>4} | {printable(shown)}")
                    out.append(f"       | {_pad(shown, loc.column - 1 - start)}{'^' * width}")
            if shader_line is not None:  # a finding at a key, about this shader line
                _show_shader_line(out, *shader_line, column)
            if diag.shader_place is not None and diag.shader_place.instruction:
                out.append(f"       = shader_code: {printable(diag.shader_place.instruction)}")
            fix = diag.fix
            if fix is not None:
                fixable[fix.applicability] += 1
            # As ruff does: [*] marks what the fix command repairs.
            mark = " [*]" if fix is not None and fix.applicability is Applicability.SAFE \
                else ""
            if diag.hint or mark:
                shown = diag.hint or (fix.title if fix is not None else "")
                out.append(f"       = help: {printable(shown)}{mark}")
    files = len(reports)
    summary = (f"{totals[Severity.ERROR]} error(s), {totals[Severity.WARNING]} warning(s), "
               f"{totals[Severity.INFO]} info(s) in {files} file(s)")
    out.append(("" if not out else "\n") + summary)
    safe, unsafe = fixable[Applicability.SAFE], fixable[Applicability.UNSAFE]
    if safe:
        more = f" ({unsafe} more with `--unsafe-fixes`)" if unsafe else ""
        out.append(f"[*] {safe} fixable with `tosa-vkshader fix`{more}")
    elif unsafe:
        out.append(f"{unsafe} fixable with `tosa-vkshader fix --unsafe-fixes`")
    return "\n".join(out) + "\n"


def _pad(shown: str, before: int) -> str:
    """Spaces up to the caret: as wide as the escaped text before it."""
    return " " * len(printable(shown[:max(0, before)]))
