"""Attribute JSON held inside a model: parse it and place its problems in the model file."""

from __future__ import annotations

from collections.abc import Callable

from ..config import Options
from ..diagnostics import Diagnostic, Location
from ..op_context import OpContext
from .base import Locator, Op
from .jsontext import JsonDocument, parse_json


def embedded_op(
    data: str | bytes,
    path: str | None,
    options: Options,
    *,
    place_offset: Callable[[int], Location],
    locator_for: Callable[[JsonDocument], Locator],
    context: OpContext | None,
    parsed: dict[str | bytes, tuple[JsonDocument | None, list[Diagnostic]]] | None = None,
) -> tuple[Op | None, list[Diagnostic]]:
    """The op whose attribute JSON is ``data``, and the problems of that JSON, located in
    the host file. ``place_offset`` turns an offset in ``data`` into a host location (for
    syntax errors); ``locator_for`` makes the op's locator once the JSON has parsed.
    ``parsed``: the JSON texts parsed so far in the host file (a model's ops that carry
    the same attributes share the document)."""
    known = parsed.get(data) if parsed is not None else None
    document, problems = known if known is not None else \
        parse_json(data, path, max_bytes=options.max_file_size, max_depth=options.max_depth)
    if parsed is not None and known is None:
        parsed[data] = document, problems
    if document is None:
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        placed = []
        for problem in problems:
            loc = problem.location
            offset = _offset(text, loc.line, loc.column) if loc is not None else 0
            placed.append(problem.located(place_offset(offset)))
        return None, placed
    name = context.operator_name if context is not None else None
    op = Op(document.value, path, "", document, name=name, context=context,
            locator=locator_for(document))
    return op, [problem.located(op.locate(problem)) for problem in problems]


def _offset(text: str, line: int, column: int) -> int:
    start = 0
    for _ in range(line - 1):
        found = text.find("\n", start)
        if found < 0:
            break
        start = found + 1
    return min(start + column - 1, len(text))
