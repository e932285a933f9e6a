"""Machine-readable output. The shape is versioned; see docs/json-output.md."""

from __future__ import annotations

import json

from ..checked import Report
from ..diagnostics import Applicability, Diagnostic, Fix, Severity
from ..rule_registry import RULES
from ..version import __version__

JSON_FORMAT_VERSION = 1
# Severity.label computes the name on each call; this runs for every finding.
_LABELS = {severity: severity.label for severity in Severity}


def diagnostic_to_dict(diag: Diagnostic) -> dict:
    """One diagnostic, with its fix (see fixes.py) when it has one."""
    loc = diag.location
    fix = diag.fix
    shader = diag.shader_position
    rule = RULES[diag.code]
    return {
        "code": diag.code,
        "name": rule.name,
        "severity": _LABELS[diag.severity],
        "message": diag.message,
        "pointer": diag.pointer,
        "location": None if loc is None else {
            "path": loc.path, "line": loc.line, "column": loc.column,
            "end_line": loc.end_line, "end_column": loc.end_column,
            "logical": loc.logical,
        },
        "shader_location": None if shader is None else {
            "line": shader.line, "column": shader.column,
        },
        "shader_instruction": diag.shader_place.instruction if diag.shader_place else None,
        "hint": diag.hint,
        "fixable": fix is not None and fix.applicability is Applicability.SAFE,
        # (the text of a one-edit fix: what format version 1 gave before `fix` was)
        "replacement": fix.edits[0].text if fix is not None and len(fix.edits) == 1 else None,
        "fix": None if fix is None else fix_to_dict(fix),
        "target": diag.target,
        "docs": rule.docs,
    }


def fix_to_dict(fix: Fix) -> dict:
    """A fix: its edits as ranges of the checked text (1-based, columns in code points,
    the end exclusive) and the text that replaces each."""
    return {
        "title": fix.title,
        "applicability": fix.applicability.value,
        "edits": [{"start": {"line": e.range.line, "column": e.range.column},
                   "end": {"line": e.range.end_line, "column": e.range.end_column},
                   "text": e.text} for e in fix.edits if e.range is not None],
    }


def reports_to_dict(reports: list[Report]) -> dict:
    totals = dict.fromkeys(_LABELS.values(), 0)
    files = []
    for report in reports:
        for diag in report.diagnostics:
            totals[_LABELS[diag.severity]] += 1
        files.append({
            "path": report.path,
            "ok": report.ok,
            "diagnostics": [diagnostic_to_dict(d) for d in report.diagnostics],
        })
    return {
        "version": JSON_FORMAT_VERSION,
        "tool": {"name": "tosa-vkshader", "version": __version__},
        "files": files,
        "summary": {"files": len(reports), "errors": totals["error"],
                    "warnings": totals["warning"], "infos": totals["info"]},
    }


def render_json(reports: list[Report]) -> str:
    return json.dumps(reports_to_dict(reports), indent=2) + "\n"
