"""A checked file (or text, or object): its diagnostics, and what the reporters show of
it. What ``check.report_for`` and ``api.check_paths`` give, what every reporter reads."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .diagnostics import Diagnostic, Location, Severity, pointer_join, resolve_pointer

if TYPE_CHECKING:
    from .sources.base import Op, SourceFile
    from .typed_attributes import Attributes


@dataclass(slots=True)
class Report:
    """The outcome of checking one file (or one text / object)."""

    path: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    source: SourceFile | None = field(default=None, repr=False)
    # What reporters show of a source that is not here (see ``detached``): file lines by
    # number, each shader-internal diagnostic's shader line, and the place in the file of
    # each shader declaration a finding names.
    _kept_lines: dict[int, str] = field(default_factory=dict, repr=False)
    _kept_shader_lines: dict[Diagnostic, tuple[int, str] | None] = field(
        default_factory=dict, repr=False)
    _kept_shader_locations: dict[Diagnostic, Location | None] = field(
        default_factory=dict, repr=False)
    _split_values: dict[int, list[str]] = field(default_factory=dict, repr=False)

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def ok(self) -> bool:
        """True when nothing at error severity was found."""
        return not self.errors

    @property
    def codes(self) -> list[str]:
        return sorted({d.code for d in self.diagnostics})

    @property
    def attributes(self) -> Attributes | None:
        """The typed attributes of the (first) op, when it has no errors."""
        if not self.ok or self.source is None or not self.source.ops:
            return None
        from .typed_attributes import Attributes

        return Attributes.from_attrs(self.source.ops[0].attributes)

    def line_text(self, line: int) -> str:
        """Line ``line`` (1-based) of the checked file, "" when there is none."""
        if self.source is None:
            return self._kept_lines.get(line, "")
        return self.source.line_text(line)

    def shader_line(self, diag: Diagnostic) -> tuple[int, str] | None:
        """(line number, text) of the shader source line ``diag`` is about: the line inside
        a multi-line ``shader_code`` it points into (``inner``), or the declaration a
        finding at another key names (``shader_place``); None when there is none."""
        position = diag.shader_position
        if position is None:
            return None
        if self.source is None:
            return self._kept_shader_lines.get(diag)
        for op in self._ops_of(diag):
            inside = diag.shader_place is None  # else: the op's shader_code
            pointer = diag.pointer if inside else pointer_join(op.base, "shader_code")
            value = resolve_pointer(op.attributes, pointer[len(op.base):]) \
                if pointer.startswith(op.base) else None
            # (a problem inside a one-line value reads fine in place)
            if isinstance(value, str) and ("\n" in value or not inside):
                split = self._split_values.get(id(value))
                if split is None:  # (a value of the source, alive as long as it is)
                    split = self._split_values[id(value)] = value.split("\n")
                if 1 <= position.line <= len(split):
                    return position.line, split[position.line - 1].rstrip("\r")
        return None

    def shader_location(self, diag: Diagnostic) -> Location | None:
        """Where in the file the shader line of ``diag`` is: its own location for a
        problem inside ``shader_code``, the declaration's place (inside the
        ``shader_code`` string, through its escapes) for a finding at another key."""
        position = diag.shader_position
        if position is None or diag.shader_place is None:
            return diag.location if position is not None else None
        if self.source is None:
            return self._kept_shader_locations.get(diag)
        for op in self._ops_of(diag):
            return op.locate(Diagnostic(diag.code, diag.severity, "",
                                        pointer_join(op.base, "shader_code"), inner=position))
        return None

    def _ops_of(self, diag: Diagnostic) -> Iterator[Op]:
        """The op whose attributes ``diag`` is about. Pointers are relative to each op's
        attributes: in a file of several ops (a model, a list) it is the one that places
        the diagnostic where it is."""
        ops = self.source.ops if self.source is not None else []
        for op in ops:
            if len(ops) > 1 and op.locate(replace(diag, location=None)) != diag.location:
                continue
            yield op

    def detached(self) -> Report:
        """This report without its source, keeping what reporters show of it (the lines
        its diagnostics are on): small to send from a worker process. ``attributes`` and
        ``source`` are None on the copy."""
        lines = {d.location.line: self.line_text(d.location.line)
                 for d in self.diagnostics if d.location is not None}
        shader_lines = {d: self.shader_line(d) for d in self.diagnostics
                        if d.shader_position is not None}
        places = {d: self.shader_location(d) for d in self.diagnostics
                  if d.shader_place is not None and d.shader_position is not None}
        return Report(self.path, self.diagnostics, None, lines, shader_lines, places)
