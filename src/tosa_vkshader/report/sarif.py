"""SARIF 2.1.0 output, for code-scanning dashboards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..checked import Report
from ..diagnostics import Applicability, Fix, Location, Severity
from ..version import __version__

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _uri(path: str | None) -> str:
    """A URI reference for the file: relative paths stay relative (code-scanning services
    resolve them against the checkout), percent-encoded where a URI needs it."""
    if not path:
        return "stdin"
    candidate = Path(path)
    if candidate.is_absolute():
        return candidate.as_uri()
    return quote(candidate.as_posix(), safe="/-._~!$&'()*+,;=@")


def _location(loc: Location, report_path: str | None) -> dict:
    physical: dict = {"artifactLocation": {"uri": _uri(loc.path or report_path)}}
    if loc.line >= 1:
        region = {"startLine": loc.line, "startColumn": loc.column}
        if loc.end_line:
            region["endLine"] = loc.end_line
            region["endColumn"] = max(loc.end_column or loc.column, loc.column)
        physical["region"] = region
    location: dict = {"physicalLocation": physical}
    if loc.logical:
        # A .tosa flatbuffer has no lines: the operator is the place.
        location["logicalLocations"] = [{"fullyQualifiedName": loc.logical,
                                         "kind": "function"}]
    return location


def _fix(fix: Fix, report_path: str | None) -> dict:
    """A diagnostic's fix as SARIF: each edit a replaced region (empty for an insertion)
    and the text put there."""
    replacements = []
    path = report_path
    for edit in fix.edits:
        where = edit.range
        if where is None:
            continue
        path = where.path or report_path
        replacements.append({
            "deletedRegion": {"startLine": where.line, "startColumn": where.column,
                              "endLine": where.end_line, "endColumn": where.end_column},
            "insertedContent": {"text": edit.text}})
    return {"description": {"text": fix.title},
            "artifactChanges": [{"artifactLocation": {"uri": _uri(path)},
                                 "replacements": replacements}],
            "properties": {"applicability": fix.applicability.value}}


def render_sarif(reports: list[Report]) -> str:
    from ..rules_doc import all_rules

    documented = all_rules()  # the driver lists every rule, not only those reported
    index = {item.code: i for i, item in enumerate(documented)}
    rules = [{
        "id": item.code,
        "name": item.name,
        "shortDescription": {"text": item.summary},
        "fullDescription": {"text": item.why},
        "help": {"text": f"{item.summary} {item.why} ({item.docs})",
                 "markdown": item.help_markdown},
        "defaultConfiguration": {"level": _LEVELS[item.severity]},
    } for item in documented]
    results = []
    for report in reports:
        for diag in report.diagnostics:
            text = diag.message
            if diag.shader_place is not None and diag.shader_place.instruction:
                text += f" [shader_code: {diag.shader_place.instruction}]"
            text += f" (help: {diag.hint})" if diag.hint else ""
            properties: dict[str, Any] = {"jsonPointer": diag.pointer}
            result: dict[str, Any] = {
                "ruleId": diag.code,
                "ruleIndex": index[diag.code],
                "level": _LEVELS[diag.severity],
                "message": {"text": text},
                "properties": properties,
            }
            if diag.target is not None:
                properties["targetDevice"] = diag.target
            if diag.location is not None:
                result["locations"] = [_location(diag.location, report.path)]
            shader = diag.shader_position
            if shader is not None:
                # The shader's own line, as a property and as a related location naming
                # it: the diagnostic's own place for a problem inside shader_code, the
                # declaration's place in the file for a finding at another key.
                properties["shaderLocation"] = {"line": shader.line, "column": shader.column}
                where = report.shader_location(diag)
                if where is not None:
                    related = _location(where, report.path)
                    related["id"] = 1
                    related["message"] = {"text": f"line {shader.line}, column "
                                                  f"{shader.column} of shader_code"}
                    result["relatedLocations"] = [related]
            if diag.shader_place is not None and diag.shader_place.instruction:
                properties["shaderInstruction"] = diag.shader_place.instruction
            if diag.fix is not None and diag.fix.applicability is not \
                    Applicability.DISPLAY_ONLY:
                result["fixes"] = [_fix(diag.fix, report.path)]
            results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "tosa-vkshader",
                "version": __version__,
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(log, indent=2) + "\n"
