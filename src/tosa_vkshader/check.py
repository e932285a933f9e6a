"""The one checking pipeline. Every front door (CLI, API, hook, web) ends up here.

source -> ops -> key grammar + view -> rules -> shader checks -> located diagnostics
"""

from __future__ import annotations

from dataclasses import replace

from .config import Options
from .diagnostics import Diagnostic, Location, Severity, rule
from .rules import run_rules
from .sources.base import Op, SourceFile
from .view import AttributeView
from .rules.value_types import json_type

NOT_AN_OBJECT = rule(
    "VKS102", "not-an-object", Severity.ERROR,
    summary="The attribute value is not a JSON object.",
    why="Attributes are a JSON object of key/value pairs; an array, string or number at "
        "the top cannot be read by the converter.",
    bad='[{"entry_point": "main"}]',
    good='{"entry_point": "main", "workgroup_sizes": [1, 1, 1]}',
)


def check_op_unlocated(op: Op, options: Options) -> list[Diagnostic]:
    """Diagnostics for one op, with JSON pointers but not yet file positions."""
    if not isinstance(op.attributes, dict):
        return [NOT_AN_OBJECT.at(op.base, f"attributes must be a JSON object, got "
                                          f"{json_type(op.attributes)}")]
    view = AttributeView.build(op.attributes, options, op.base)
    return run_rules(view)


def finish(diagnostics: list[Diagnostic], op: Op | None, path: str | None,
           options: Options) -> list[Diagnostic]:
    """Filter by select/ignore, apply severity overrides, attach locations, sort."""
    finished = []
    for diag in diagnostics:
        if not options.enabled(diag.code):
            continue
        if diag.code in options.severity:
            diag = replace(diag, severity=options.severity[diag.code])
        if diag.location is None:
            location = op.locate(diag) if op is not None else None
            diag = diag.located(location or Location(path, 1, 1))
        finished.append(diag)
    finished.sort(key=Diagnostic.sort_key)
    return finished


def check_op(op: Op, options: Options | None = None) -> list[Diagnostic]:
    options = options or Options()
    return finish(check_op_unlocated(op, options), op, op.path, options)


def check_source(source: SourceFile, options: Options) -> list[Diagnostic]:
    # File-level problems (duplicate keys, ...) are located in the whole document.
    document_op = Op(None, source.path, "", source.document) if source.document else None
    found = finish(source.diagnostics, document_op, source.path, options)
    for op in source.ops:
        found.extend(check_op(op, options))
    found.sort(key=Diagnostic.sort_key)
    return found
