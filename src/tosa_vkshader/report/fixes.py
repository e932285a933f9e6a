"""Which diagnostics `tosa-vkshader fix` repairs, and the edit it makes.

A diagnostic carries the JSON token that replaces its key or value (``replacement``); the
edit is offered only where the located text is that plain JSON token in the file (an
attribute object or an op object's ``implementation_attrs`` object), which is what `fix`
rewrites. Inside an MLIR string or a JSON-encoded string the token is escaped, so no
edit is offered there.
"""

from __future__ import annotations

import json

from ..api import Report
from ..diagnostics import Diagnostic


def fix_for(report: Report, diag: Diagnostic) -> str | None:
    """The replacement text for the diagnostic's located region, or None."""
    loc = diag.location
    if diag.replacement is None or loc is None or loc.line < 1 or loc.end_line != loc.line \
            or not loc.end_column:
        return None
    token = report.line_text(loc.line)[loc.column - 1:loc.end_column - 1]
    inside = token[1:-1]
    if len(token) > 1 and token[0] == token[-1] == '"' and inside.isascii() \
            and inside.isprintable() and '"' not in inside and "\\" not in inside:
        return diag.replacement  # a plain JSON string, as json.dumps writes it
    try:
        value = json.loads(token)
    except ValueError:
        return None
    if not isinstance(value, str) or json.dumps(value) != token:
        return None
    return diag.replacement


def fixable_count(reports: list[Report]) -> int:
    return sum(1 for report in reports for diag in report.diagnostics
               if fix_for(report, diag) is not None)
