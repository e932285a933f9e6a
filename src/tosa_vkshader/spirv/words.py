"""A module's 32-bit words and the instructions they hold, for the few questions that are
answered straight from the words (the reader keeps no instruction list): a buffer's
``.length()`` read, the subgroup built-ins declared, the bit reinterpretations of a
buffer, glslang's HLSL prefix scans."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator, Sequence

MAGIC = 0x07230203
HEADER_WORDS = 5


def module_words(spirv: bytes) -> array:
    """The module's 32-bit words in the machine's byte order (whatever order it was
    written in; a trailing partial word is dropped)."""
    words = array("I")
    words.frombytes(spirv[:len(spirv) // 4 * 4])
    if words and words[0] != MAGIC:
        words.byteswap()
    return words


def module_bytes(words: array) -> bytes:
    """The words back as a module in little-endian order, as compilers write it."""
    if sys.byteorder == "big":
        words = array("I", words)
        words.byteswap()
    return words.tobytes()


def instructions(words: Sequence[int]) -> Iterator[tuple[int, int, int]]:
    """(offset, opcode, word count) of each instruction after the header, in order; stops
    at a malformed one (the reader reports those)."""
    i, n = HEADER_WORDS, len(words)
    while i < n:
        count, opcode = words[i] >> 16, words[i] & 0xFFFF
        if count == 0 or i + count > n:
            return
        yield i, opcode, count
        i += count
