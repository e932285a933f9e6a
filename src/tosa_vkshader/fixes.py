"""Fixes carried by diagnostics: what to change in the checked text, and how sure it is.

A rule that knows the repair of what it reports attaches a ``diagnostics.Fix`` to the
diagnostic (``RULE.at(pointer, message, fix=rename_key(pointer, "input_0_binding"))``,
the constructors beside the records in diagnostics.py). Its edits
name the place as the rule knows it: the key or the value at a JSON pointer of the op's
attributes, or a new member after one. When the pipeline locates the diagnostic in its
file (``check.finish``), each edit gets its range in the checked text (``Edit.range``,
1-based lines and columns counting code points, the end exclusive) and the text to put
there as the file writes it (``Edit.text``: escaped inside an MLIR or JSON string).

:func:`apply_fixes` applies the located fixes of a text's diagnostics; the ``fix``
command, the reporters (``[*]``, SARIF ``fixes``, JSON ``fix``), the web's "apply fix"
and an editor's code actions all use those same edits.
"""

from __future__ import annotations

from collections.abc import Iterable

from .diagnostics import Diagnostic, Edit, Fix


def apply_fixes(text: str, diagnostics: Iterable[Diagnostic], *, unsafe: bool = False
                ) -> tuple[str, list[Fix]]:
    """Apply the fixes of ``diagnostics`` to ``text``, the text they were located in:
    the safe ones (and the unsafe ones with ``unsafe``), each whole or not at all. The
    text they make, and the fixes applied (in the order given). A fix whose edits overlap
    those of a fix taken before it, or another edit of its own, is left out: check the
    result again to find it (with its new ranges) if it still applies. The same fix
    carried by two diagnostics is applied once."""
    return apply_edits(text, (d.fix for d in diagnostics if d.fix is not None),
                       unsafe=unsafe)


def apply_edits(text: str, fixes: Iterable[Fix], *, unsafe: bool = False
                ) -> tuple[str, list[Fix]]:
    """:func:`apply_fixes` for fixes that no diagnostic carries (``fix``'s rewrites)."""
    starts = _line_starts(text)
    taken: list[tuple[int, int, str]] = []
    applied: list[Fix] = []
    for fix in fixes:
        if not fix.applies(unsafe) or fix in applied:
            continue
        spans = [_span(edit, starts, len(text)) for edit in fix.edits]
        if any(span is None for span in spans):
            continue
        chosen = [span for span in spans if span is not None]
        if any(_overlap(a, b) for k, a in enumerate(chosen) for b in chosen[k + 1:] + taken):
            continue
        taken += chosen
        applied.append(fix)
    for start, end, new in sorted(taken, reverse=True):
        text = text[:start] + new + text[end:]
    return text, applied


def _line_starts(text: str) -> list[int]:
    starts = [0]
    end = text.find("\n")
    while end >= 0:
        starts.append(end + 1)
        end = text.find("\n", end + 1)
    return starts


def _span(edit: Edit, starts: list[int], size: int) -> tuple[int, int, str] | None:
    where = edit.range
    if where is None or edit.text is None or where.end_line is None or \
            where.end_column is None or not 1 <= where.line <= where.end_line <= len(starts):
        return None
    start = starts[where.line - 1] + where.column - 1
    end = starts[where.end_line - 1] + where.end_column - 1
    return (start, end, edit.text) if 0 <= start <= end <= size else None


def _overlap(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    """Whether two edits touch the same text; two insertions at one place do too (their
    order would be a guess)."""
    return a[0] == b[0] or (a[0] < b[1] and b[0] < a[1])
