"""GitHub Actions workflow commands (``::error file=...,line=...::message``)."""

from __future__ import annotations

from ..checked import Report
from ..diagnostics import Severity
from ..rule_registry import RULES
from .printable import printable

_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape(text: str, *, property_value: bool = False) -> str:
    # GitHub's own escapes for %, CR and LF; then no other control character or lone
    # surrogate can reach the log.
    text = printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(reports: list[Report]) -> str:
    lines = []
    for report in reports:
        for diag in report.diagnostics:
            loc = diag.location
            props = []
            message = diag.message + (f" (help: {diag.hint})" if diag.hint else "")
            shader = diag.shader_position
            if shader is not None:
                message += f" [shader_code line {shader.line}, column {shader.column}]"
            if diag.shader_place is not None and diag.shader_place.instruction:
                message += f" [shader_code: {diag.shader_place.instruction}]"
            if loc is not None:
                path = _escape(loc.path or report.path or "", property_value=True)
                props.append(f"file={path}")
                if loc.line >= 1:
                    props += [f"line={loc.line}", f"col={loc.column}"]
                    if loc.end_line:
                        props += [f"endLine={loc.end_line}",
                                  f"endColumn={max(loc.end_column or loc.column, loc.column)}"]
                if loc.logical:  # a .tosa operator: no line to annotate, so name it
                    message = f"{loc.logical}: {message}"
            elif report.path:
                props.append(f"file={_escape(report.path, property_value=True)}")
            title = f"{diag.code} {RULES[diag.code].name}"
            props.append(f"title={_escape(title, property_value=True)}")
            lines.append(f"::{_COMMANDS[diag.severity]} {','.join(props)}::{_escape(message)}")
    return "\n".join(lines) + ("\n" if lines else "")
