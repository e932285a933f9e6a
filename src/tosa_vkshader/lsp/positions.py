"""Places in a document: the checker's 1-based line and column (Unicode code points, lines
split at ``\\n``) to the protocol's 0-based positions in the encoding the client and the
server agreed on (UTF-16 unless the client offers another), and back."""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from ..diagnostics import Location


def _units(text: str, encoding: str) -> int:
    """How many code units of ``encoding`` the text takes."""
    if encoding == types.PositionEncodingKind.Utf32 or text.isascii():
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


class Lines:
    """A snapshot of a document's text, for converting places in it."""

    def __init__(self, text: str, encoding: str = types.PositionEncodingKind.Utf16) -> None:
        self.text = text
        self.encoding = encoding
        self._starts: list[int] | None = None

    def starts(self) -> list[int]:
        """The offset where each line starts."""
        if self._starts is None:
            starts, at = [0], self.text.find("\n")
            while at >= 0:
                starts.append(at + 1)
                at = self.text.find("\n", at + 1)
            self._starts = starts
        return self._starts

    def line(self, number: int) -> str:
        """Line ``number`` (0-based) without its line break; "" past the end."""
        starts = self.starts()
        if not 0 <= number < len(starts):
            return ""
        end = starts[number + 1] - 1 if number + 1 < len(starts) else len(self.text)
        return self.text[starts[number]:end].removesuffix("\r")

    def position(self, line: int, column: int) -> types.Position:
        """The protocol's position of the checker's ``line``:``column`` (1-based; line 0,
        a binary model's logical place, is the top of the document)."""
        if line < 1:
            return types.Position(0, 0)
        text = self.line(line - 1)
        return types.Position(line - 1, _units(text[:max(column - 1, 0)], self.encoding))

    def range(self, location: Location) -> types.Range:
        """The range of a location; one without an end covers the word that starts there
        (a compiler's message points at a column), else one character."""
        start = self.position(location.line, location.column)
        if location.end_line is not None and location.end_column is not None:
            return types.Range(start, self.position(location.end_line, location.end_column))
        text = self.line(location.line - 1) if location.line >= 1 else ""
        first = max(location.column - 1, 0)
        last = first
        while last < len(text) and (text[last].isalnum() or text[last] == "_"):
            last += 1
        last = max(last, min(first + 1, len(text)))
        return types.Range(start, self.position(location.line, last + 1))

    def offset(self, position: types.Position) -> int:
        """The offset in the text (code points) of a protocol position."""
        starts = self.starts()
        if position.line >= len(starts):
            return len(self.text)
        text = self.line(position.line)
        if self.encoding == types.PositionEncodingKind.Utf32 or text.isascii():
            return starts[position.line] + min(position.character, len(text))
        units = column = 0
        while column < len(text) and units < position.character:
            units += _units(text[column], self.encoding)
            column += 1
        return starts[position.line] + column

    def place(self, position: types.Position) -> tuple[int, int]:
        """The checker's 1-based line and column of a protocol position."""
        offset = self.offset(position)
        line = bisect.bisect_right(self.starts(), offset)
        return line, offset - self.starts()[line - 1] + 1

    def point(self, offset: int) -> types.Position:
        """The protocol position of an offset in the text."""
        starts = self.starts()
        line = bisect.bisect_right(starts, offset) - 1
        return types.Position(line, _units(self.text[starts[line]:offset], self.encoding))
