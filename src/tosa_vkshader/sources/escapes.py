"""Decoding string literals of a host file, mapping decoded positions back, and writing
text as such a literal writes it.

Attributes embedded in a model are a string inside another syntax: an MLIR string
attribute (escapes ``\\22``, ``\\"``, ``\\\\``, ``\\n``, ``\\t`` and ``\\XX`` bytes that
together form UTF-8) or a JSON string (``\\"``, ``\\uXXXX``, ...). Decoding is done once,
fast; the position map is built only when a diagnostic has to be placed in the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from .base import OffsetMap

_MLIR_SIMPLE = {b'"': 0x22, b"\\": 0x5C, b"n": 0x0A, b"t": 0x09}
_MLIR_ESCAPE_BYTES = re.compile(rb'\\([0-9a-fA-F]{2}|["\\nt])')
_MLIR_ANY_ESCAPE = re.compile(rb'\\([0-9a-fA-F]{2}|["\\nt])?')


class EscapeError(ValueError):
    """A string literal that cannot be decoded; ``offset`` is where, in the host text."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def _mlir_byte(match: re.Match[bytes]) -> bytes:
    token = match.group(1)
    simple = _MLIR_SIMPLE.get(token)
    return bytes((simple if simple is not None else int(token, 16),))


def decode_mlir(raw: bytes, start: int) -> str:
    """The value of the MLIR string literal whose contents are ``raw`` (UTF-8 bytes,
    at byte offset ``start`` of the file: the offset an error gives)."""
    if b"\\" not in raw:
        return raw.decode("utf-8", "surrogatepass")
    escapes = raw.count(b"\\")
    hex_quotes = raw.count(b"\\22")
    if escapes == hex_quotes:  # only quotes are escaped, as tosa-opt prints JSON
        return raw.replace(b"\\22", b'"').decode("utf-8")
    if escapes == hex_quotes + raw.count(b'\\"'):
        return raw.replace(b'\\"', b'"').replace(b"\\22", b'"').decode("utf-8")
    if b"\\" in _MLIR_ESCAPE_BYTES.sub(b"", raw):
        bad = next(m for m in _MLIR_ANY_ESCAPE.finditer(raw) if m.group(1) is None)
        shown = raw[bad.start() : bad.start() + 2].decode("utf-8", "replace")
        raise EscapeError(f"unknown escape `{shown}` in an MLIR string (MLIR knows \\\", "
                          "\\\\, \\n, \\t and two hex digits such as \\22)",
                          start + bad.start())
    decoded = _MLIR_ESCAPE_BYTES.sub(_mlir_byte, raw)
    try:
        return decoded.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Find the escape that produced the bad byte: map decoded bytes back to the text.
        raise EscapeError(f"the escaped bytes do not form UTF-8 text ({exc.reason})",
                          start + _mlir_offset_of_byte(raw, exc.start)) from None


def _mlir_offset_of_byte(raw: bytes, byte_index: int) -> int:
    """Where in ``raw`` (a literal's contents) decoded byte ``byte_index`` comes from."""
    produced = 0
    pos = 0
    while pos < len(raw):
        match = _MLIR_ESCAPE_BYTES.match(raw, pos)
        if produced == byte_index:
            return pos
        produced += 1
        pos = match.end() if match is not None else pos + 1
    return len(raw)


# An escaped byte of 0x80 or more: part of a UTF-8 sequence of several escapes.
_MLIR_HIGH_BYTE = re.compile(rb"\\[89a-fA-F][0-9a-fA-F]")


def mlir_offsets(raw: bytes, start: int) -> OffsetMap:
    """Position map from the characters of the MLIR string literal whose contents are
    ``raw``, at byte offset ``start`` of the file (already decoded once without error by
    :func:`decode_mlir`), to byte offsets."""
    spans = [match.span() for match in _MLIR_ESCAPE_BYTES.finditer(raw)]
    if (raw.isascii() and len(spans) == raw.count(b"\\") - raw.count(b"\\\\")
            and _MLIR_HIGH_BYTE.search(raw) is None):
        return _ascii_offsets(spans, start, start + len(raw))
    return _utf8_offsets(raw, start)


def _ascii_offsets(spans: list[tuple[int, int]], start: int, end: int) -> OffsetMap:
    """The map when the literal is ASCII and every escape stands for one ASCII character
    (``\\22``, ``\\0A``, ``\\"``: what printers write), the text between them copied: one
    step per escape, found by one regular-expression scan (the general walk searches,
    matches and groups each; 100 ops of a model took 6-7 ms that way, 4-5 ms this one).
    ``spans`` are relative to ``start``."""
    mapping = OffsetMap()
    inner = 0
    pos = 0
    for escape_start, escape_end in spans:
        if escape_start > pos:
            mapping.verbatim(inner, start + pos, escape_start - pos)
            inner += escape_start - pos
        mapping.escape(inner, start + escape_start, escape_end - escape_start)
        inner += 1
        pos = escape_end
    mapping.verbatim(inner, start + pos, end - start - pos)
    return mapping


_ASCII_RUN = re.compile(rb"[\x00-\x5b\x5d-\x7f]*")  # up to a backslash or a non-ASCII byte


def _utf8_offsets(raw: bytes, base: int) -> OffsetMap:
    """The map in general: characters written as several bytes, escaped bytes that
    together form one UTF-8 character (and a lone backslash, which decode_mlir refused,
    as text). ``raw`` is the literal's contents, at ``base`` in the file."""
    mapping = OffsetMap()
    inner = 0
    pos = 0
    end = len(raw)
    # Pending escaped bytes: they form UTF-8 characters together.
    pending: list[tuple[int, int, int]] = []  # (byte, host offset, host length)

    def flush() -> None:
        nonlocal inner
        index = 0
        while index < len(pending):
            size = min(_utf8_length(pending[index][0]), len(pending) - index)
            first, last = pending[index], pending[index + size - 1]
            mapping.escape(inner, first[1], last[1] + last[2] - first[1])
            inner += 1
            index += size
        pending.clear()

    while pos < end:
        run = _ASCII_RUN.match(raw, pos)
        assert run is not None  # (it matches the empty string)
        if run.end() > pos:
            flush()
            mapping.verbatim(inner, base + pos, run.end() - pos)
            inner += run.end() - pos
            pos = run.end()
            continue
        if raw[pos] != 0x5C:  # a character written as its UTF-8 bytes
            flush()
            size = min(_utf8_length(raw[pos]), end - pos)
            mapping.escape(inner, base + pos, size)
            inner += 1
            pos += size
            continue
        match = _MLIR_ESCAPE_BYTES.match(raw, pos)
        if match is None:  # decode_mlir rejected it already; map it verbatim
            flush()
            mapping.verbatim(inner, base + pos, 1)
            inner += 1
            pos += 1
            continue
        token = match.group(1)
        value = _MLIR_SIMPLE.get(token) if len(token) == 1 else int(token, 16)
        assert value is not None
        if value < 0x80:  # a character of its own (most escapes: `\22`, `\5C`, `\0A`)
            flush()
            mapping.escape(inner, base + pos, match.end() - pos)
            inner += 1
        else:  # a byte of a UTF-8 sequence: the following escapes complete it
            pending.append((value, base + pos, match.end() - pos))
        pos = match.end()
    flush()
    return mapping


def _utf8_length(lead: int) -> int:
    """The bytes of the UTF-8 sequence that ``lead`` starts."""
    return 1 if lead < 0x80 else 2 if lead >> 5 == 6 else 3 if lead >> 4 == 14 else 4


_JSON_PLAIN = re.compile(r'[^"\\]*')
# (`_JSON_PLAIN` matches at every position, the empty string at worst: never None)
_json_plain: Callable[[str, int], re.Match[str]] = _JSON_PLAIN.match  # type: ignore[assignment]
# One decoded character of a JSON string: a surrogate pair, a \u escape, another escape.
_JSON_ESCAPE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.")


def json_string_offsets(text: str, quote: int) -> OffsetMap:
    """Position map for the JSON string literal whose opening quote is at ``quote``."""
    mapping = OffsetMap()
    inner = 0
    pos = quote + 1
    while pos < len(text):
        stop = _json_plain(text, pos).end()
        if stop > pos:
            mapping.verbatim(inner, pos, stop - pos)
            inner += stop - pos
        if stop >= len(text) or text[stop] == '"':
            break
        match = _JSON_ESCAPE.match(text, stop)
        length = match.end() - stop if match else 1
        mapping.escape(inner, stop, length)
        inner += 1
        pos = stop + length
    return mapping


def mlir_string(text: str) -> str:
    """``text`` as an MLIR string literal: quotes and backslashes escaped, every byte that
    is not printable ASCII written ``\\XX`` (UTF-8 bytes), as ``mlir-opt`` prints them."""
    out = ['"']
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append(f"\\{byte:02X}")
    out.append('"')
    return "".join(out)


def mlir_escape(text: str, literal: str) -> str:
    """``text`` written inside the MLIR string literal whose contents are ``literal``: as
    :func:`mlir_string` writes it, with quotes written ``\\22`` where the literal writes
    them so."""
    written = mlir_string(text)[1:-1]
    if "\\22" in literal and '\\"' not in literal:
        return written.replace('\\"', "\\22")
    return written


def json_escape(text: str) -> str:
    """``text`` written inside a JSON string literal."""
    return json.dumps(text, ensure_ascii=False)[1:-1]
