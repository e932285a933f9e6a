"""What every source yields: ops (an attribute object plus where it came from).

Diagnostic pointers are always relative to the op's attribute object, whatever file the
op came from; each op knows how to turn a pointer into a place in its file. An op's
attributes may sit inside a string of the file (an MLIR string attribute, a JSON string):
then an :class:`OffsetMap` maps positions in the decoded text back through the escapes.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from ..diagnostics import Diagnostic, Edit, Fix, Location, Part
from ..op_context import OpContext
from .jsontext import JsonDocument

if TYPE_CHECKING:
    from typing import Any

    class Lines(Protocol):
        def line_text(self, line: int) -> str: ...


class Host(Protocol):
    """A file's text that turns offsets into places (:class:`TextFile`, or a model's
    ``ModelText``)."""

    def location(self, start: int, end: int | None = None) -> Location: ...


class Locator(Protocol):
    """Places an op's diagnostics (their pointers, relative to its attributes) and the
    edits of their fixes in the op's file."""

    def __call__(self, diagnostic: Diagnostic) -> Location | None: ...

    def edit(self, edit: Edit) -> Edit | None:
        """``edit`` with its range in the file and its text as the file writes it; None
        when it has no place there."""


class LinedText:
    """What a file's text gives reports: the place of an offset and the text of a line.
    A subclass says where its lines start, at which column an offset is, and what a
    line holds (``_line``)."""

    path: str | None
    # The line asked for last: reporters ask for the same (possibly megabytes long,
    # minified) line once per diagnostic on it.
    _last_line: tuple[int, str] | None

    def line_starts(self) -> list[int]:
        raise NotImplementedError

    def line_col(self, offset: int) -> tuple[int, int]:
        raise NotImplementedError

    def _line(self, line: int, starts: list[int]) -> str:
        raise NotImplementedError

    def location(self, start: int, end: int | None = None) -> Location:
        line, col = self.line_col(start)
        if end is None:
            return Location(self.path, line, col)
        end_line, end_col = self.line_col(max(start, end))
        return Location(self.path, line, col, end_line, end_col)

    def line_text(self, line: int) -> str:
        if self._last_line is not None and self._last_line[0] == line:
            return self._last_line[1]
        starts = self.line_starts()
        if line < 1 or line > len(starts):
            return ""
        text = self._line(line, starts)
        self._last_line = (line, text)
        return text


@dataclass(slots=True)
class TextFile(LinedText):
    """The text of a file, with offsets turned into 1-based line/column on demand."""

    text: str
    path: str | None
    _line_starts: list[int] | None = field(default=None, repr=False)
    _last_line: tuple[int, str] | None = field(default=None, repr=False)

    def line_starts(self) -> list[int]:
        """Where each line starts; built on the first position asked for (a file without
        diagnostics never pays for it). ``str.find`` is about twice as fast as a regex
        over a model of long lines."""
        if self._line_starts is None:
            text, starts = self.text, [0]
            end = text.find("\n")
            while end >= 0:
                starts.append(end + 1)
                end = text.find("\n", end + 1)
            self._line_starts = starts
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        starts = self.line_starts()
        line = bisect.bisect_right(starts, offset) - 1
        return line + 1, offset - starts[line] + 1

    def _line(self, line: int, starts: list[int]) -> str:
        start = starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start : end if end >= 0 else len(self.text)].rstrip("\r")


class OffsetMap:
    """Maps offsets in decoded text to offsets in the file it was decoded from.

    Built from segments: a run of characters copied verbatim, or one decoded character
    that came from an escape of some length (``\\22``, ``\\u00e9``, ``\\E2\\80\\99``...).
    """

    __slots__ = ("_inner", "_host", "_length", "_verbatim", "_moved")

    def __init__(self) -> None:
        self._inner: list[int] = []
        self._host: list[int] = []
        self._length: list[int] = []
        self._verbatim: list[bool] = []
        self._moved = 0  # added to every host offset

    def moved(self, by: int) -> OffsetMap:
        """The same map for the same text ``by`` further in the file (the segments
        shared, not copied)."""
        other = OffsetMap()
        other._inner, other._host = self._inner, self._host
        other._length, other._verbatim = self._length, self._verbatim
        other._moved = self._moved + by
        return other

    def verbatim(self, inner: int, host: int, length: int) -> None:
        if length:
            self._add(inner, host, length, True)

    def escape(self, inner: int, host: int, host_length: int) -> None:
        self._add(inner, host, host_length, False)

    def _add(self, inner: int, host: int, length: int, verbatim: bool) -> None:
        self._inner.append(inner)
        self._host.append(host)
        self._length.append(length)
        self._verbatim.append(verbatim)

    def host(self, inner: int) -> int:
        """The file offset where decoded character ``inner`` starts (or the end)."""
        index = bisect.bisect_right(self._inner, inner) - 1
        if index < 0:
            return self._moved + (self._host[0] if self._host else 0)
        start = self._inner[index]
        if self._verbatim[index]:
            return self._moved + self._host[index] + min(inner - start, self._length[index])
        return self._moved + self._host[index] + (0 if inner == start
                                                  else self._length[index])

    def host_end(self, inner_end: int) -> int:
        """The file offset just after decoded character ``inner_end - 1``."""
        if inner_end <= 0:
            return self.host(0)
        index = bisect.bisect_right(self._inner, inner_end - 1) - 1
        if index < 0:
            return self.host(0)
        if self._verbatim[index]:
            return self._moved + self._host[index] + min(inner_end - self._inner[index],
                                                         self._length[index])
        return self._moved + self._host[index] + self._length[index]


# -- where a fix's edit goes in the JSON text of an op's attributes (see diagnostics.Fix):
# offsets in that text and the JSON to put there; the op's locator then maps them into the
# file (through the escapes of a string that holds the attributes) and writes the JSON as
# that string does.

def edit_offsets(document: JsonDocument, pointer: str, edit: Edit
                 ) -> tuple[int, int, str] | None:
    """``(start, end, JSON text)`` in ``document.text`` for ``edit``, whose place is the
    member at ``pointer`` (the edit's own pointer below the op's attributes); None when
    the document has no such member."""
    span = document.span(pointer)
    if span is None:
        return None
    text = document.text
    newline = "\r\n" if "\r\n" in text else "\n"
    if edit.part is Part.VALUE:
        # A value over several lines is laid out under the line it starts on.
        indent = _indentation(text, span.value_start)
        return (span.value_start, span.value_end,
                edit.content.replace("\n", newline + indent))
    if span.key_start is None or span.key_end is None:
        return None  # (the attribute object itself, or an array's item: no key)
    if edit.part is Part.KEY:
        return span.key_start, span.key_end, edit.content
    # A new member after this one, laid out like it: on a line of its own with the same
    # indentation when this one has a line of its own, else on the same line.
    line_start = text.rfind("\n", 0, span.key_start) + 1
    own_line = not text[line_start:span.key_start].strip()
    separator = f",{newline}{text[line_start:span.key_start]}" if own_line else ", "
    return span.value_end, span.value_end, separator + edit.content


def _indentation(text: str, offset: int) -> str:
    """The white space that starts the line ``offset`` is on."""
    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:offset]
    return line[:len(line) - len(line.lstrip(" \t"))]


@dataclass(slots=True)
class EmbeddedLocator:
    """Locates pointers in JSON text that sits, escaped, inside a string of a file."""

    document: JsonDocument
    host: Host
    # Builds the position map; called once, when the first diagnostic is placed.
    build_offsets: Callable[[], OffsetMap]
    # Writes JSON text as the string holding it does (with its escapes).
    escape: Callable[[str], str]
    _offsets: OffsetMap | None = field(default=None, repr=False)

    def offsets(self) -> OffsetMap:
        if self._offsets is None:
            self._offsets = self.build_offsets()
        return self._offsets

    def __call__(self, diagnostic: Diagnostic) -> Location | None:
        found = self.document.locate_offsets(diagnostic.pointer, on_key=diagnostic.on_key,
                                             inner=diagnostic.inner)
        if found is None:
            return None
        start, end = found
        mapping = self.offsets()
        host_start = mapping.host(start)
        if start == end:
            return self.host.location(host_start)
        return self.host.location(host_start, mapping.host_end(end))

    def at_offset(self, offset: int) -> Location:
        return self.host.location(self.offsets().host(offset))

    def edit(self, edit: Edit) -> Edit | None:
        found = edit_offsets(self.document, edit.pointer, edit)
        if found is None:
            return None
        start, end, content = found
        mapping = self.offsets()
        # (an insertion goes right after the character before it, escape and all)
        host_start = mapping.host(start) if end > start else mapping.host_end(start)
        where = self.host.location(host_start, max(host_start, mapping.host_end(end)))
        return replace(edit, range=where, text=self.escape(content))


@dataclass(slots=True)
class PrefixLocator:
    """Locates pointers of an attribute object nested at ``prefix`` in a JSON document."""

    document: JsonDocument
    prefix: str

    def __call__(self, diagnostic: Diagnostic) -> Location | None:
        return self.document.locate(self.prefix + diagnostic.pointer,
                                    on_key=diagnostic.on_key, inner=diagnostic.inner)

    def edit(self, edit: Edit) -> Edit | None:
        return edit_in_document(self.document, self.prefix, edit)


def edit_in_document(document: JsonDocument, prefix: str, edit: Edit) -> Edit | None:
    """``edit`` placed in the JSON file ``document`` whose object at ``prefix`` holds
    the op's attributes."""
    found = edit_offsets(document, prefix + edit.pointer, edit)
    if found is None:
        return None
    start, end, content = found
    line, column = document.offset_to_line_col(start)
    end_line, end_column = document.offset_to_line_col(end)
    return replace(edit, range=Location(document.path, line, column, end_line, end_column),
                   text=content)


@dataclass(slots=True)
class FixedLocator:
    """Every diagnostic of the op at one place (an operator of a .tosa file)."""

    location: Location

    def __call__(self, diagnostic: Diagnostic) -> Location | None:
        return self.location

    def edit(self, edit: Edit) -> Edit | None:
        return None  # (a flatbuffer's op has no text to edit)


@dataclass(slots=True)
class Op:
    """One custom op to check: its attribute object and how to locate things in it."""

    attributes: Any
    path: str | None = None
    # JSON pointer of the attribute object inside ``document`` ("" for a bare object).
    base: str = ""
    document: JsonDocument | None = None
    name: str | None = None
    # For ops built from Python objects: renders the JSON document to locate diagnostics in,
    # called only when there is something to locate.
    render: Callable[[], JsonDocument] | None = field(default=None, repr=False)
    # The model around the op (operator name, operand and result types), when known.
    context: OpContext | None = None
    # Maps a diagnostic (its pointer, relative to the attributes) to a place in the file;
    # when None, ``document`` is searched for ``pointer``.
    locator: Locator | None = field(default=None, repr=False)

    def locate(self, diagnostic: Diagnostic) -> Location | None:
        if self.locator is not None:
            return self.locator(diagnostic)
        document = self._document()
        if document is None:
            return None
        return document.locate(diagnostic.pointer, on_key=diagnostic.on_key,
                               inner=diagnostic.inner)

    def place_fix(self, fix: Fix) -> Fix | None:
        """``fix`` with every edit placed in the op's file, or None when one of them has
        no place there."""
        edits = []
        for edit in fix.edits:
            if self.locator is not None:
                placed = self.locator.edit(edit)
            else:
                document = self._document()
                placed = edit_in_document(document, "", edit) if document is not None else None
            if placed is None:
                return None
            edits.append(placed)
        return replace(fix, edits=tuple(edits))

    def _document(self) -> JsonDocument | None:
        if self.document is None and self.render is not None:
            self.document = self.render()
        return self.document


@dataclass(slots=True)
class SourceFile:
    """A file (or text) read into ops, plus problems with the file itself."""

    path: str | None
    ops: list[Op] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    document: JsonDocument | None = None
    # The file's text when it is not (only) a JSON document, for showing lines.
    text: Lines | None = None
    # Why the file was not checked (not an op document: sources.recognise), else None.
    skipped: str | None = None

    def line_text(self, line: int) -> str:
        shown = self.text if self.text is not None else self.document
        return shown.line_text(line) if shown is not None else ""
