"""Op objects (``{"domain_name", "operator_name", "implementation_attrs"}``) for the web.

The core reads bare attribute objects; until its JSON source unwraps op objects itself,
this module does, so the playground can take what users paste from their converter
input. ``implementation_attrs`` may be an object (diagnostics point into it directly) or a
JSON string (checked as attribute text; positions are mapped back through the string's
escapes into the op text, pointers stay relative to the attribute object).

Reading is split from checking so that a worker can check many requests in one pipeline
run (one glslc process): :func:`prepare_text` gives the sources to check and a function
that turns their diagnostics into the request's report.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..api import Report, source_of
from ..config import Options
from ..diagnostics import Diagnostic, InnerPosition, Location
from ..sources.base import Op, SourceFile
from ..sources.jsontext import JsonDocument

ATTRS_KEY = "implementation_attrs"


@dataclass
class Prepared:
    """Sources to check, and how their diagnostics (one list per source) make a report."""

    sources: list[SourceFile]
    report: Callable[[list[list[Diagnostic]]], Report]


def is_op_object(value: Any) -> bool:
    return isinstance(value, dict) and ATTRS_KEY in value


def op_attributes(value: Any) -> Any:
    """The attribute object (or attribute JSON text) of an op object, else ``value``."""
    return value[ATTRS_KEY] if is_op_object(value) else value


def single(source: SourceFile, path: str) -> Prepared:
    return Prepared([source], lambda found: Report(path, found[0], source))


def prepare_text(text: str, options: Options, path: str) -> Prepared:
    """JSON text that holds an attribute object or an op object."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        value = None  # the pipeline reports what is wrong with the text
    source = source_of(text, options, path)
    if not is_op_object(value) or source.document is None:
        return single(source, path)  # a bare object, or text over a limit
    document = source.document
    attributes = document.value[ATTRS_KEY]
    if not isinstance(attributes, str):
        source.ops = [Op(attributes, path, "/" + ATTRS_KEY, document)]
        return single(source, path)
    source.ops = []  # the op text itself: only its own problems (duplicate keys, ...)
    inner = source_of(attributes, options, path)

    def report(found: list[list[Diagnostic]]) -> Report:
        own, in_string = found
        merged = own + [_map_out(d, document) for d in in_string]
        merged.sort(key=Diagnostic.sort_key)
        return Report(path, merged, source)

    return Prepared([source, inner], report)


def _map_out(diag: Diagnostic, document: JsonDocument) -> Diagnostic:
    """A diagnostic located in the decoded ``implementation_attrs`` string, located in the
    op text instead."""
    loc = diag.location
    if loc is None:
        return diag
    pointer = "/" + ATTRS_KEY
    start = document.locate(pointer, inner=InnerPosition(loc.line, loc.column))
    if start is None:
        return diag
    end_line, end_column = start.line, start.column
    if loc.end_line is not None and loc.end_column is not None:
        end = document.locate(pointer, inner=InnerPosition(loc.end_line, loc.end_column))
        if end is not None:
            end_line, end_column = end.line, end.column
    return diag.located(Location(loc.path, start.line, start.column, end_line, end_column))
