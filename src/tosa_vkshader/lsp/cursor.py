"""What the cursor is on in an op document: which op, which key, the key or its value.

The document's text is read as `check` reads it (the same readers), and each key's place
is found the way a diagnostic's is (``Op.locate``), so it works alike in attribute JSON,
in an op object whose attributes are a JSON string, and inside an MLIR model's escaped
attribute string.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, Location, Severity, pointer_join

if TYPE_CHECKING:
    from typing import Any

    from ..sources.base import Op, SourceFile


@dataclass(frozen=True, slots=True)
class KeyPlace:
    """The attribute key the cursor is on (``on_key``) or in the value of."""

    op: Op
    key: str
    on_key: bool
    location: Location  # of the key, or of its value

    @property
    def value(self) -> Any:
        return self.op.attributes.get(self.key)


def locate(op: Op, key: str | None, *, on_key: bool = False,
           inner: Any = None) -> Location | None:
    """Where in the file an op's key (or its value, or the op's whole attribute object
    when ``key`` is None) is."""
    pointer = op.base if key is None else pointer_join(op.base, key)
    # (a finding's place is worked out from its pointer alone: any code will do)
    probe = Diagnostic("VKS000", Severity.INFO, "", pointer, on_key=on_key, inner=inner)
    return op.locate(probe)


def _contains(location: Location, line: int, column: int) -> bool:
    end_line = location.end_line if location.end_line is not None else location.line
    end_column = location.end_column if location.end_column is not None else location.column
    return (location.line, location.column) <= (line, column) <= (end_line, end_column)


def key_at(source: SourceFile, line: int, column: int) -> KeyPlace | None:
    """The key at 1-based ``line``:``column`` (the cursor may sit just after it)."""
    for op in source.ops:
        if not isinstance(op.attributes, dict):
            continue
        whole = locate(op, None)
        if whole is not None and whole.end_line is not None \
                and not _contains(whole, line, column):
            continue
        for key in op.attributes:
            for on_key in (True, False):
                where = locate(op, key, on_key=on_key)
                if where is not None and where.line >= 1 and _contains(where, line, column):
                    return KeyPlace(op, key, on_key, where)
    return None


def op_at(source: SourceFile, line: int, column: int) -> Op | None:
    """The op whose attribute object holds the place (the only op, when there is one)."""
    ops = [op for op in source.ops if isinstance(op.attributes, dict)]
    for op in ops:
        whole = locate(op, None)
        if whole is not None and whole.end_line is not None and _contains(whole, line, column):
            return op
    return ops[0] if len(ops) == 1 else None
