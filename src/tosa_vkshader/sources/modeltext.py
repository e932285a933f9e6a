"""A TOSA MLIR model's text as its UTF-8 bytes: what the MLIR reader reads.

A model is mostly weights (dense hex constants, tens of megabytes), and the reader needs
only a few kilobytes of it: the ``tosa.custom`` ops, function signatures, returns and the
SSA values after an op. So the text is never decoded as a whole (that cost 15-25 ms on a
23 MB model), nor held in memory whole: a large model is read from its open file
(``fsutil.open_limited``), once from start to end a block at a time (checking that it is
UTF-8, finding keywords and line starts), then only where the reader or a report looks
(an op, a line, the values after an op), each piece read when it is needed. Peak memory
is that of the process plus a block, whatever the model's size; a memory map of the file
would count every page it touched, and a page of a large file brings the kernel's whole
folio of pages (up to megabytes) with it. Offsets are byte offsets; a text given as a
string is encoded and read the same way.
"""

from __future__ import annotations

import bisect
import codecs
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, Location
from .base import LinedText
from .jsontext import NOT_UTF8

if TYPE_CHECKING:
    from io import FileIO

# The bytes of a pass over a model held at a time.
BLOCK = 1 << 20
_BOM = b"\xef\xbb\xbf"


class ModelText(LinedText):
    """A model's bytes (in memory, or an open file read where asked) with byte offsets
    turned into 1-based lines and (character) columns on demand."""

    __slots__ = ("_bytes", "_file", "size", "path", "ascii", "checked", "problem",
                 "_line_starts", "_last_line")

    def __init__(self, data: bytes | FileIO, path: str | None, size: int | None = None
                 ) -> None:
        self._bytes = data if isinstance(data, bytes) else None
        self._file = None if isinstance(data, bytes) else data
        # (a file: the size it had when it was opened; what grew since is not read)
        self.size = len(data) if isinstance(data, bytes) else \
            (size if size is not None else os.fstat(data.fileno()).st_size)
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
    def of(cls, data: bytes | str | FileIO, path: str | None = None) -> ModelText:
        """The text of ``data``: a file's bytes or the open file, or a string."""
        if not isinstance(data, str):
            return cls(data, path)
        text = cls(data.encode("utf-8", "surrogatepass"), path)
        text.ascii = data.isascii()
        text.checked = True
        return text

    def __len__(self) -> int:
        return self.size

    def read(self, start: int, end: int) -> bytes:
        """The bytes from ``start`` to ``end`` (clipped to the text)."""
        start, end = max(start, 0), min(end, self.size)
        if end <= start:
            return b""
        if self._bytes is not None:
            return self._bytes[start:end]
        assert self._file is not None
        return os.pread(self._file.fileno(), end - start, start)

    def blocks(self, start: int = 0) -> Iterator[tuple[int, bytes]]:
        """``(offset, bytes)`` of consecutive blocks from ``start`` to the end."""
        if self._bytes is not None:
            if start < self.size:
                yield start, self._bytes if start == 0 else self._bytes[start:]
            return
        while start < self.size:
            block = self.read(start, start + BLOCK)
            if not block:
                return  # (the file was cut short meanwhile)
            yield start, block
            start += len(block)

    # -- the pass over the whole model -------------------------------------------------------
    def scan(self, visit: Callable[[bytes, int], None]) -> None:
        """One pass over the whole text, a block at a time, while the block is in the
        processor's caches: find where lines start, check that the bytes are UTF-8 (sets
        :attr:`ascii`), and call ``visit(block, offset)`` with each block. Sets
        :attr:`problem` to the VKS101 diagnostic at the first byte that is not UTF-8
        (text given as a string is not checked again)."""
        decoder = codecs.getincrementaldecoder("utf-8")()
        ascii_only = True
        problem = None
        starts = [0]
        for start, block in self.blocks():
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
                problem = self._not_utf8(self.size - len(decoder.getstate()[0]) + exc.start)
        self._line_starts = starts
        self.problem = problem
        if not self.checked:
            self.ascii = ascii_only and problem is None

    def _not_utf8(self, offset: int) -> Diagnostic:
        """The VKS101 diagnostic: its offset and column count bytes, after a BOM."""
        before = self.read(0, offset)
        line_start = before.rfind(b"\n") + 1
        diagnostic = NOT_UTF8.at("", f"byte 0x{self.read(offset, offset + 1)[0]:02x} at "
                                     f"offset {offset - self._bom()} is not valid UTF-8",
                                 hint="save the file as UTF-8")
        return diagnostic.located(Location(self.path, before.count(b"\n") + 1,
                                           offset - max(line_start, self._bom()) + 1))

    def _bom(self) -> int:
        return 3 if self.read(0, 3) == _BOM else 0

    # -- lines and places ----------------------------------------------------------------------
    def line_starts(self) -> list[int]:
        """Where each line starts (found by :meth:`scan`, else when first asked for)."""
        if self._line_starts is None:
            self.scan(lambda block, offset: None)
        assert self._line_starts is not None  # (scan found them)
        return self._line_starts

    def line_start(self, offset: int) -> int:
        """Where the line that holds ``offset`` starts."""
        starts = self.line_starts()
        return starts[bisect.bisect_right(starts, offset) - 1]

    def line_end(self, offset: int) -> int:
        """Where the line that holds ``offset`` ends (its newline, or the end)."""
        starts = self.line_starts()
        following = bisect.bisect_right(starts, offset)
        return starts[following] - 1 if following < len(starts) else self.size

    def line_col(self, offset: int) -> tuple[int, int]:
        starts = self.line_starts()
        line = bisect.bisect_right(starts, offset) - 1
        start = starts[line]
        if line == 0:
            start = min(self._bom(), max(offset, 0))
        if self.ascii:
            return line + 1, offset - start + 1
        before = self.read(start, offset).decode("utf-8", "replace")
        return line + 1, len(before) + 1

    def _line(self, line: int, starts: list[int]) -> str:
        start = starts[line - 1] if line > 1 else self._bom()
        end = starts[line] - 1 if line < len(starts) else self.size
        return self.read(start, end).decode("utf-8", "replace").rstrip("\r")
