"""What every source yields: ops (an attribute object plus where it came from)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Diagnostic, Location
from .jsontext import JsonDocument


@dataclass
class Op:
    """One custom op to check: its attribute object and how to locate things in it."""

    attributes: Any
    path: str | None = None
    # JSON pointer of the attribute object inside ``document`` ("" for a bare object).
    base: str = ""
    document: JsonDocument | None = None
    name: str | None = None
    # For ops built from Python objects: renders JSON text to locate diagnostics in,
    # called only when there is something to locate.
    render: Callable[[], str] | None = field(default=None, repr=False)

    def locate(self, diagnostic: Diagnostic) -> Location | None:
        if self.document is None and self.render is not None:
            self.document = JsonDocument(self.render(), self.path)
        if self.document is None:
            return None
        return self.document.locate(diagnostic.pointer, on_key=diagnostic.on_key,
                                    inner=diagnostic.inner)


@dataclass
class SourceFile:
    """A file (or text) read into ops, plus problems with the file itself."""

    path: str | None
    ops: list[Op] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    document: JsonDocument | None = None
