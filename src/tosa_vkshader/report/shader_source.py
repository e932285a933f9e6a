"""The op a diagnostic belongs to and its shader source, for the reports that show the
shader's own line next to the attribute a finding points at."""

from __future__ import annotations

from dataclasses import replace

from ..api import Report
from ..diagnostics import Diagnostic, Location, pointer_join
from ..sources.base import Op


def op_of(report: Report, diag: Diagnostic) -> Op | None:
    """The op whose attributes the diagnostic's pointer is relative to. In a file of
    several ops (a model, a list) it is the one that places the diagnostic where it is."""
    ops = report.source.ops if report.source is not None else []
    for op in ops:
        if not diag.pointer.startswith(op.base):
            continue
        if len(ops) > 1 and op.locate(replace(diag, location=None)) != diag.location:
            continue
        return op
    return None


def shader_code_pointer(diag: Diagnostic, op: Op) -> str:
    """The pointer of the op's ``shader_code`` (the diagnostic's own for a problem inside
    it, the op's for a finding at another key)."""
    if diag.shader_place is None and diag.inner is not None:
        return diag.pointer
    return pointer_join(op.base, "shader_code")


def shader_source(report: Report, diag: Diagnostic) -> str | None:
    """The decoded ``shader_code`` text the diagnostic's shader position is in."""
    if diag.shader_position is None:
        return None
    op = op_of(report, diag)
    if op is None or not isinstance(op.attributes, dict):
        return None
    code = op.attributes.get("shader_code")
    return code if isinstance(code, str) else None


def shader_file_location(report: Report, diag: Diagnostic) -> Location | None:
    """Where in the file the diagnostic's shader position is (through the string's
    escapes): its own location for a problem inside ``shader_code``, else the place of
    the declaration a finding at another key is about."""
    position = diag.shader_position
    if position is None:
        return None
    if diag.shader_place is None:
        return diag.location
    op = op_of(report, diag)
    if op is None:
        return None
    return op.locate(Diagnostic(diag.code, diag.severity, "", shader_code_pointer(diag, op),
                                inner=position))
