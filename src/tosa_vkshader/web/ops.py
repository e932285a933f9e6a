"""Op objects (``{"domain_name", "operator_name", "implementation_attrs"}``) for the web.

The core reads bare attribute objects; until its JSON source unwraps op objects itself,
this module does, so the playground can take what users paste from their converter
input. ``implementation_attrs`` may be an object (diagnostics point into it directly) or a
JSON string (checked as attribute text; positions are mapped back through the string's
escapes into the op text, pointers stay relative to the attribute object).
"""

from __future__ import annotations

import json
from typing import Any

from ..api import Report, validate
from ..check import check_source
from ..config import Options
from ..diagnostics import Diagnostic, InnerPosition, Location
from ..sources.base import Op
from ..sources.json_source import read_json
from ..sources.jsontext import JsonDocument

ATTRS_KEY = "implementation_attrs"


def is_op_object(value: Any) -> bool:
    return isinstance(value, dict) and ATTRS_KEY in value


def op_attributes(value: Any) -> Any:
    """The attribute object (or attribute JSON text) of an op object, else ``value``."""
    return value[ATTRS_KEY] if is_op_object(value) else value


def check_op_text(text: str, options: Options, path: str) -> Report:
    """Check JSON text that holds an attribute object or an op object."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        value = None  # validate() reports what is wrong with the text
    if not is_op_object(value):
        return validate(text, options, path=path)
    source = read_json(text, path, options)
    if source.document is None:  # over a limit: the text-level problem says which
        return Report(path, check_source(source, options), source)
    document = source.document
    attributes = document.value[ATTRS_KEY]
    if not isinstance(attributes, str):
        source.ops = [Op(attributes, path, "/" + ATTRS_KEY, document)]
        return Report(path, check_source(source, options), source)
    source.ops = []
    found = check_source(source, options)  # problems of the op text itself
    inner = validate(attributes, options, path=path)
    found += [_map_out(d, document) for d in inner.diagnostics]
    found.sort(key=Diagnostic.sort_key)
    return Report(path, found, source)


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
