"""A TOSA MLIR model's text as its UTF-8 bytes: what the MLIR reader reads.

A model is mostly weights (dense hex constants, tens of megabytes), and the reader needs
only a few kilobytes of it: the ``tosa.custom`` ops, function signatures, returns and SSA
uses. So the text is never decoded as a whole (that cost 15-25 ms on a 23 MB model and
held the text twice, as a map and as a string); offsets are byte offsets, and only the
pieces the reader or a report looks at are decoded. A large file is read through a memory
map of it (``fsutil.map_limited``): a pass over the whole model (checking that it is
UTF-8, finding keywords, SSA uses, line starts) goes a block at a time, and gives the
block's pages back once it is done with them, so the model is never held in memory whole
either; what is looked at again later (an op, a line) is read from the map again.
"""

from __future__ import annotations

import bisect
import codecs
import mmap
from collections.abc import Callable, Iterator

from ..diagnostics import Diagnostic, Location
from .jsontext import NOT_UTF8

# The bytes of a pass over a memory-mapped model held at a time.
BLOCK = 1 << 20
_BOM = b"\xef\xbb\xbf"


class ModelText:
    """A model's bytes (``bytes``, or a read-only memory map of the file) with byte
    offsets turned into 1-based lines and (character) columns on demand."""

    __slots__ = ("data", "path", "ascii", "checked", "problem", "_line_starts",
                 "_last_line")

    def __init__(self, data: bytes | mmap.mmap, path: str | None) -> None:
        self.data = data
        self.path = path
        # Whether every byte is ASCII (then a column is a byte distance); known after
        # :meth:`scan`, else assumed not.
        self.ascii = False
        # Whether the bytes are known to be UTF-8 (they were encoded from a string).
        self.checked = False
        # After :meth:`scan`: the VKS101 diagnostic when the bytes are not UTF-8.
        self.problem: Diagnostic | None = None
        self._line_starts: list[int] | None = None
        self._last_line: tuple[int, str] | None = None

    @classmethod
    def of(cls, data: bytes | str | mmap.mmap, path: str | None = None) -> ModelText:
        """The text of ``data``: a file's bytes or map, or text given as a string."""
        if not isinstance(data, str):
            return cls(data, path)
        text = cls(data.encode("utf-8", "surrogatepass"), path)
        text.ascii = data.isascii()
        text.checked = True
        return text

    def __len__(self) -> int:
        return len(self.data)

    # -- passes over the whole model -------------------------------------------------------
    def blocks(self, start: int = 0) -> Iterator[tuple[int, int]]:
        """``(start, end)`` of consecutive blocks from ``start`` to the end of the text.
        Once the caller asks for the next block, a memory map's pages of the last one are
        given back (to be read again from the file if they are looked at again)."""
        size = len(self.data)
        if not isinstance(self.data, mmap.mmap):
            if start < size:
                yield start, size
            return
        while start < size:
            end = min(start + BLOCK, size)
            yield start, end
            self._release(start, end)
            start = end

    def _release(self, start: int, end: int) -> None:
        assert isinstance(self.data, mmap.mmap)
        advice = getattr(mmap, "MADV_DONTNEED", None)
        if advice is not None:
            aligned = start - start % mmap.PAGESIZE
            self.data.madvise(advice, aligned, end - aligned)

    def scan(self, visit: Callable[[bytes, int], None]) -> None:
        """One pass over the whole text, a block at a time, while the block is in the
        processor's caches: find where lines start, check that the bytes are UTF-8 (sets
        :attr:`ascii`), and call ``visit(block, offset)`` with each block (a copy of a
        memory map's bytes; the bytes themselves otherwise). Sets :attr:`problem` to the
        VKS101 diagnostic at the first byte that is not UTF-8 (text given as a string is
        not checked again)."""
        data = self.data
        decoder = codecs.getincrementaldecoder("utf-8")()
        ascii_only = True
        problem = None
        starts = [0]
        for start, end in self.blocks():
            block = data[start:end] if isinstance(data, mmap.mmap) else data
            found = block.find(b"\n")
            while found >= 0:
                starts.append(start + found + 1)
                found = block.find(b"\n", found + 1)
            visit(block, start)
            if problem is not None or self.checked or (
                    block.isascii() and not decoder.getstate()[0]):
                continue
            ascii_only = False
            try:
                decoder.decode(block)
            except UnicodeDecodeError as exc:
                problem = self._not_utf8(start - len(decoder.getstate()[0]) + exc.start)
        if problem is None and not self.checked:
            try:
                decoder.decode(b"", True)
            except UnicodeDecodeError as exc:
                problem = self._not_utf8(len(data) - len(decoder.getstate()[0]) + exc.start)
        self._line_starts = starts
        self.problem = problem
        if not self.checked:
            self.ascii = ascii_only and problem is None

    def _not_utf8(self, offset: int) -> Diagnostic:
        """The VKS101 diagnostic: its offset and column count bytes, after a BOM."""
        line_start = self.data.rfind(b"\n", 0, offset) + 1
        line = self.data[:offset].count(b"\n") + 1
        diagnostic = NOT_UTF8.at("", f"byte 0x{self.data[offset]:02x} at offset "
                                     f"{offset - self._bom()} is not valid UTF-8",
                                 hint="save the file as UTF-8")
        return diagnostic.located(Location(self.path, line, offset - max(line_start,
                                                                         self._bom()) + 1))

    def _bom(self) -> int:
        return 3 if self.data[:3] == _BOM else 0

    # -- places ------------------------------------------------------------------------------
    def line_starts(self) -> list[int]:
        """Where each line starts (found by :meth:`scan`, else on the first position
        asked for)."""
        if self._line_starts is None:
            self.scan(lambda block, offset: None)
        assert self._line_starts is not None  # (scan found them)
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        starts = self.line_starts()
        line = bisect.bisect_right(starts, offset) - 1
        start = starts[line]
        if line == 0:
            start = min(self._bom(), max(offset, 0))
        if self.ascii:
            return line + 1, offset - start + 1
        before = self.data[start:offset].decode("utf-8", "replace")
        return line + 1, len(before) + 1

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
        start = starts[line - 1] if line > 1 else self._bom()
        end = self.data.find(b"\n", start)
        raw = self.data[start : end if end >= 0 else len(self.data)]
        text = raw.decode("utf-8", "replace").rstrip("\r")
        self._last_line = (line, text)
        return text

    def decode(self, start: int, end: int) -> str:
        """The text between two byte offsets (a name, a type, a message's excerpt)."""
        return self.data[start:end].decode("utf-8", "replace")
