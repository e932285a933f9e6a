"""TOSA MLIR text: every ``tosa.custom`` op, in pretty or generic form.

The file is read once, in time linear in its size whatever it holds. ``tosa.custom`` is
found by a search for single bytes (in the one pass over the file that also finds the
lines); each hit is confirmed to be code (not inside a string or a comment: MLIR strings
and comments end at the line's end) by a scanner that only moves forward, so no character
is tokenized twice. Each op is then read from its name up to the next op's name at most
(a ``tosa.custom`` op has no regions, so it cannot contain another one): the attribute
dictionary (``{...}``, or properties ``<{...}>`` in generic form) and the type signature
``(operand types) -> result types``. An unclosed bracket therefore costs the rest of its
own op, never the rest of the file. Ops of other domains are skipped before their
attributes are decoded.

The text is the file's UTF-8 bytes (:class:`~.modeltext.ModelText`): offsets are byte
offsets, and only the pieces read (an op, a name, a type, a line) are read from the file
and decoded. Positions: the implementation_attrs string is decoded (MLIR escapes), parsed
as JSON, and a diagnostic's pointer is mapped back through both to a line and column of
the .mlir file.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..config import Options
from ..op_context import OpContext, TensorType, domain_kind, parse_type
from .base import EmbeddedLocator, OffsetMap, SourceFile
from .embedded import embedded_op
from .escapes import EscapeError, decode_mlir, mlir_escape, mlir_offsets
from .modeltext import ModelText
from .reading_rules import MISSING_ATTRS, MLIR_SYNTAX

if TYPE_CHECKING:
    from io import FileIO

    from ..diagnostics import Diagnostic
    from .jsontext import JsonDocument

OP_NAME = b"tosa.custom"
FUNCTION = b"func.func"
_RETURN = b"return"
_KEYWORDS = (OP_NAME, FUNCTION, _RETURN)
# The byte before the first ``u`` of each keyword: c, f, t.
_KEYWORDS_BY_BYTE_BEFORE_U = {word[word.index(b"u") - 1]: word for word in _KEYWORDS}
# A name goes on with these bytes (and with non-ASCII ones: letters of other scripts).
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") \
    | frozenset(range(0x80, 0x100))
# A bare op name must not be part of a longer name, an SSA value, attribute alias, ...
_NOT_BEFORE = frozenset(b'.$%#@!"') | _WORD
_NOT_AFTER = frozenset(b".$") | _WORD
# On one line: a string literal (possibly unterminated) or the start of a comment.
_LINE_TOKEN = re.compile(rb'"[^"\\\n]*(?:\\.[^"\\\n]*)*"?|//')
_STRING = re.compile(rb'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_SPACE = re.compile(rb"(?:\s+|//[^\n]*)*")
_SPACE_STARTS = frozenset(b" \t\n\r\f\v/")
_SSA = re.compile(rb"%[\w$.-]+(?:#\d+)?")
_SSA_USE = re.compile(rb"(%[\w$.-]+)(?:#(\d+))?")
_BARE_ID = re.compile(rb"[A-Za-z_][\w$.-]*")
_SYMBOL = re.compile(rb"[\w$.-]+")
_RESULT_NAME = re.compile(rb"(%[\w$.-]+)(?::\d+)?\s*=\s*\Z")
_RESULT_NAMES = re.compile(rb"(%[\w$.-]+(?::\d+)?(?:\s*,\s*%[\w$.-]+)*)\s*=\s*\"?\Z")
_OPEN = {ord(o): ord(c) for o, c in ("<>", "()", "[]", "{}")}
_CLOSE = frozenset(_OPEN.values())
_QUOTE, _DASH, _DOT, _BACKSLASH = ord('"'), ord("-"), ord("."), ord("\\")
# Bytes that neither open, close nor stop a value (stops: `,`, `:`, `}`, `)`, white space).
_PLAIN = re.compile(rb'[^"\-<>()\[\]{},:\s]+')
# How much of the file an op (or a signature) is first read with; four times more each
# time that is not enough, up to the next op.
_PIECE = 1 << 16
# How far after an op its results are looked for first (less when there are many ops),
# and the pieces of the pass over the rest for those not seen there.
_NEAR, _NEAR_MIN = 1 << 16, 1 << 10
_WINDOW = 1 << 16


class _SyntaxError(ValueError):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass(slots=True)
class _Attribute:
    key_start: int
    value_start: int
    value_end: int
    # For a string value: the contents' span (inside the quotes).
    string: tuple[int, int] | None = None

    def moved(self, by: int) -> _Attribute:
        return _Attribute(self.key_start + by, self.value_start + by, self.value_end + by,
                          None if self.string is None else
                          (self.string[0] + by, self.string[1] + by))


@dataclass(slots=True)
class _CustomOp:
    start: int
    name_end: int
    attributes: dict[str, _Attribute] = field(default_factory=dict)
    operands: tuple[TensorType, ...] = ()
    results: tuple[TensorType, ...] = ()
    operand_values: tuple[str, ...] = ()
    end: int = 0
    # The piece of the file the op was read from (its lines), and where it starts.
    piece: bytes = b""
    piece_start: int = 0

    def moved(self, by: int) -> _CustomOp:
        """The op with its offsets ``by`` further (read from a piece of the file)."""
        return replace(self, start=self.start + by, name_end=self.name_end + by,
                       attributes={key: attribute.moved(by)
                                   for key, attribute in self.attributes.items()},
                       end=self.end + by)

    def read(self, text: ModelText, start: int, end: int) -> bytes:
        """The bytes between two offsets: from the op's piece when they are in it."""
        if self.piece_start <= start and end <= self.piece_start + len(self.piece):
            return self.piece[start - self.piece_start : end - self.piece_start]
        return text.read(start, end)


def read_mlir(data: bytes | str | FileIO, path: str | None, options: Options) -> SourceFile:
    """The VulkanCustomShader ops of a model: its bytes (or its open file), or its
    text."""
    host = ModelText.of(data, path)
    source = SourceFile(path)
    sites = keyword_sites(host)
    if host.problem is not None:
        source.diagnostics.append(host.problem)
        return source
    source.text = host
    found = candidates(host, sites[OP_NAME])
    ops: list[_CustomOp] = []
    types: dict[bytes, TensorType] = {}
    for index, (start, end, generic) in enumerate(found):
        limit = found[index + 1][0] if index + 1 < len(found) else len(host)
        try:
            ops.append(_read_op(host, start, end, limit, generic, types))
        except _SyntaxError as exc:
            source.diagnostics.append(MLIR_SYNTAX.at(
                "", f"cannot read this tosa.custom op: {exc.message}").located(
                host.location(exc.offset)))
    returns = _return_sites(host, sites[_RETURN]) if ops else []
    known = _Known()
    for op, used in zip(ops, _results_used(host, ops, sites[FUNCTION]), strict=True):
        _add_op(source, host, op, options, used, returns, known)
    return source


def _read_op(text: ModelText, start: int, end: int, limit: int, generic: bool,
             types: dict[bytes, TensorType]) -> _CustomOp:
    """The op whose name is at ``start:end``, read no further than ``limit``: from a
    piece of the file, its line (printers write an op on one), that grows until the op
    is in it."""
    line = text.line_start(start)
    stop = min(limit, text.line_end(start) + 1)
    while True:
        piece = text.read(line, stop)
        parser = _Parser(piece, end - line, stop - line, types, last=limit == len(text))
        try:
            op = parser.op(start - line, generic)
        except _SyntaxError as exc:
            if stop == limit:
                raise _SyntaxError(exc.message, exc.offset + line) from None
        else:
            if op.end < stop - line or stop == limit:
                op = op.moved(line)
                op.piece, op.piece_start = piece, line
                return op
        stop = min(limit, stop + max(_PIECE, 3 * (stop - line)))


@dataclass(frozen=True, slots=True)
class CustomOpSite:
    """A VulkanCustomShader ``tosa.custom`` op (or a near miss of the domain) as written:
    where its name is, the span of its implementation_attrs string contents (None when it
    has no such string), its types, and how each of its results is named (``%0``, or
    ``%0#1`` for ``%0:2 = ...``; empty when the results are not named). Offsets are into
    the text's UTF-8 bytes."""

    start: int
    name_end: int
    attributes: tuple[int, int] | None
    operands: tuple[TensorType, ...]
    results: tuple[TensorType, ...]
    result_names: tuple[str, ...]


def custom_op_sites(text: bytes | str) -> list[CustomOpSite]:
    """Every VulkanCustomShader ``tosa.custom`` op of MLIR ``text`` that reads cleanly, in
    text order (the order the converter makes their compute segments in)."""
    model = ModelText.of(text)
    sites = []
    found = candidates(model)
    types: dict[bytes, TensorType] = {}
    for index, (start, end, generic) in enumerate(found):
        limit = found[index + 1][0] if index + 1 < len(found) else len(model)
        try:
            op = _read_op(model, start, end, limit, generic, types)
        except _SyntaxError:
            continue  # read_mlir reports it
        if domain_kind(_string_value(model, op, "domain_name")) == "other":
            continue
        attrs = op.attributes.get("implementation_attrs")
        sites.append(CustomOpSite(start, op.name_end,
                                  attrs.string if attrs is not None else None,
                                  op.operands, op.results,
                                  _result_names(model, op)))
    return sites


def _result_names(text: ModelText, op: _CustomOp) -> tuple[str, ...]:
    """How the op's results are referred to, as its line names them (``%a, %b = ...``,
    ``%0:2 = ...``: ``%0#0``, ``%0#1``)."""
    names = _RESULT_NAMES.search(op.read(text, text.line_start(op.start), op.start))
    if names is None:
        return ()
    pack, _, packed = names.group(1).decode().partition(":")
    if packed:
        return tuple(f"{pack}#{k}" for k in range(int(packed)))
    return tuple(name.strip() for name in names.group(1).decode().split(","))


@dataclass(frozen=True, slots=True)
class Function:
    """A ``func.func`` in pretty form: its symbol, its visibility (None when not written),
    each argument's SSA name and type, the result types, and the SSA values its first
    ``return`` lists (None when no return can be read)."""

    name: str
    visibility: str | None
    arguments: tuple[tuple[str, TensorType], ...]
    results: tuple[TensorType, ...]
    returned: tuple[str, ...] | None


def read_functions(text: bytes | str) -> list[Function]:
    """Every ``func.func`` of MLIR ``text`` whose signature reads cleanly, in text order
    (functions in generic form are not read)."""
    model = ModelText.of(text)
    sites = keyword_sites(model)
    starts = _function_starts(model, sites[FUNCTION])
    returns = _return_sites(model, sites[_RETURN])
    code = _CodeScanner(model)
    functions = []
    for index, start in enumerate(starts):
        if not code.is_code(start):
            continue
        limit = starts[index + 1] if index + 1 < len(starts) else len(model)
        try:
            name, visibility, arguments, results = _read_signature(model, start, limit)
        except _SyntaxError:
            continue
        following = bisect.bisect_left(returns, (start, 0))
        returned = None
        if following < len(returns) and returns[following][0] < limit:
            returned = _listed_values(model, returns[following][1])
        functions.append(Function(name, visibility, arguments, results, returned))
    return functions


def _read_signature(text: ModelText, start: int, limit: int,
                    ) -> tuple[str, str | None, tuple[tuple[str, TensorType], ...],
                               tuple[TensorType, ...]]:
    """The signature of the function whose ``func.func`` is at ``start`` (see
    :func:`_read_op`: from a piece of the file that grows until it is in it)."""
    size = _PIECE
    while True:
        stop = min(limit, start + size)
        parser = _Parser(text.read(start, stop), len(FUNCTION), stop - start,
                         last=limit == len(text))
        try:
            signature = parser.function()
        except _SyntaxError:
            if stop == limit:
                raise
        else:
            if parser.pos < stop - start or stop == limit:
                return signature
        size *= 4


def _listed_values(text: ModelText, end: int) -> tuple[str, ...]:
    """The SSA values a ``return`` that ends at ``end`` lists (up to its types)."""
    operands = text.read(end, text.line_end(end))
    return tuple(v.decode() for v in _SSA.findall(operands.partition(b":")[0]))


def keyword_sites(text: ModelText) -> dict[bytes, list[int]]:
    """Where each of ``tosa.custom``, ``func.func`` and ``return`` starts in ``text``, in
    order (code or not: callers judge). Found in the one pass over the file that
    :meth:`ModelText.scan` makes (which also finds the lines and checks UTF-8), from the
    file's ``u`` bytes, which each of the words holds: a search for one byte runs at
    memory speed, a search for a word five times slower, and weights (hex digits) hold
    no ``u``."""
    sites: dict[bytes, list[int]] = {word: [] for word in _KEYWORDS}

    def visit(block: bytes, offset: int) -> None:
        pos = block.find(b"u")
        while pos >= 0:
            before = block[pos - 1] if pos else _byte(text, offset - 1)
            word = _KEYWORDS_BY_BYTE_BEFORE_U.get(before)
            if word is not None:
                start = pos - word.index(b"u")
                if 0 <= start and start + len(word) <= len(block):
                    found = block.startswith(word, start)
                else:  # (across the block's edge)
                    found = text.read(offset + start, offset + start + len(word)) == word
                if found:
                    sites[word].append(offset + start)
            pos = block.find(b"u", pos + 1)

    text.scan(visit)
    return sites


def _bytes_around(text: ModelText, start: int, end: int) -> tuple[int, int]:
    """The bytes just before ``start`` and at ``end`` (-1 outside the text)."""
    piece = text.read(start - 1, end + 1)
    before = piece[0] if start > 0 else -1
    after = piece[end - start + (1 if start > 0 else 0)] if end < len(text) else -1
    return before, after


def _byte(text: ModelText, offset: int) -> int:
    """The byte at ``offset``, or -1 outside the text."""
    found = text.read(offset, offset + 1) if offset >= 0 else b""
    return found[0] if found else -1


def candidates(text: ModelText | bytes | str, sites: list[int] | None = None,
               ) -> list[tuple[int, int, bool]]:
    """(start, end, generic form) of every ``tosa.custom`` op name that is code, in order
    (``sites``: where the name occurs, when already found by :func:`keyword_sites`).

    Linear: one pass over the file, and a :class:`_CodeScanner` that tokenizes each line
    at most once however many names it holds."""
    model = text if isinstance(text, ModelText) else ModelText.of(text)
    found = []
    code = _CodeScanner(model)
    size = len(OP_NAME)
    for pos in keyword_sites(model)[OP_NAME] if sites is None else sites:
        end = pos + size
        before, after = _bytes_around(model, pos, end)
        if before == _QUOTE and after == _QUOTE:  # generic form: "tosa.custom"(...)
            if _next_byte(model, end + 1) == ord("(") and code.is_code(pos - 1):
                found.append((pos - 1, end + 1, True))
        elif before not in _NOT_BEFORE and after not in _NOT_AFTER and code.is_code(pos):
            found.append((pos, end, False))
    return found


def _next_byte(text: ModelText, pos: int) -> int:
    """The first byte from ``pos`` on that is not white space (-1 at the end)."""
    while pos < len(text):
        piece = text.read(pos, pos + 256)
        rest = piece.lstrip()
        if rest:
            return rest[0]
        pos += len(piece)
    return -1


def _spaces_end(data: bytes, pos: int, limit: int) -> int:
    """Where the white space and comments from ``pos`` end (up to ``limit``)."""
    if pos < limit and data[pos] not in _SPACE_STARTS:
        return pos  # (most tokens follow another directly or after one space)
    found = _SPACE.match(data, pos, limit)
    assert found is not None  # (the pattern matches the empty string)
    return found.end()


class _CodeScanner:
    """Whether positions, asked in increasing order, are code (outside strings and
    comments). The scan position only moves forward: a string or comment that holds many
    candidates is tokenized once, and skipped for every candidate inside it."""

    def __init__(self, text: ModelText) -> None:
        self.text = text
        self.scanned = 0  # tokens before this are known; it is never inside a token
        self.blocked_until = 0  # the end of the string or comment last found

    def is_code(self, pos: int) -> bool:
        if pos < self.blocked_until:
            return False
        text = self.text
        # (strings and comments end at the line's end)
        start = max(self.scanned, text.line_start(pos))
        for token in _LINE_TOKEN.finditer(text.read(start, pos + 1)):
            at = start + token.start()
            if at >= pos:
                break
            if token.group() == b"//" or start + token.end() > pos:
                if token.group() == b"//":
                    end = text.line_end(pos)
                else:
                    whole = _LINE_TOKEN.match(text.read(at, text.line_end(pos)))
                    assert whole is not None  # (the token just found)
                    end = at + whole.end()
                self.blocked_until = self.scanned = end
                return False
        self.scanned = pos
        return True


@dataclass(slots=True)
class _Known:
    """What the ops of a model read so far share: the values each ``return`` lists (by
    where it ends), and each distinct attribute string decoded, parsed and mapped once
    (the ops of a model repeat a few)."""

    listed: dict[int, tuple[str, ...]] = field(default_factory=dict)
    decoded: dict[bytes, str] = field(default_factory=dict)
    maps: dict[bytes, OffsetMap] = field(default_factory=dict)  # (see _Offsets)
    parsed: dict[str | bytes, tuple[JsonDocument | None, list[Diagnostic]]] = \
        field(default_factory=dict)


def _add_op(source: SourceFile, host: ModelText, op: _CustomOp, options: Options,
            results_used: tuple[bool, ...] | None, returns: list[tuple[int, int]],
            known: _Known) -> None:
    domain = _string_value(host, op, "domain_name")
    if domain_kind(domain) == "other":
        return
    context = OpContext(operator_name=_string_value(host, op, "operator_name"),
                        domain_name=domain, operands=op.operands, results=op.results,
                        operand_values=op.operand_values, results_used=results_used,
                        returned=_returned_results(host, op, returns, known.listed),
                        locate=host.location)
    context.spans["op"] = (op.start, op.name_end)
    for name in ("operator_name", "domain_name"):
        attribute = op.attributes.get(name)
        if attribute is not None:
            context.spans[name] = (attribute.value_start, attribute.value_end)
    attrs = op.attributes.get("implementation_attrs")
    if attrs is None or attrs.string is None:
        what = "has no implementation_attrs" if attrs is None else \
            "has an implementation_attrs that is not a string"
        where = host.location(op.start, op.name_end) if attrs is None else \
            host.location(attrs.value_start, attrs.value_end)
        source.diagnostics.append(MISSING_ATTRS.at("", f"the custom op {what}").located(where))
        return
    start, end = attrs.string
    raw = op.read(host, start, end)
    json_text = known.decoded.get(raw)
    if json_text is None:
        try:
            json_text = known.decoded[raw] = decode_mlir(raw, start)
        except EscapeError as exc:
            source.diagnostics.append(MLIR_SYNTAX.at(
                "", f"cannot read implementation_attrs: {exc.message}").located(
                host.location(exc.offset)))
            return
    offsets = _Offsets(raw, start, known.maps)
    op_, problems = embedded_op(
        json_text, source.path, options, context=context,
        place_offset=lambda offset: host.location(offsets().host(offset)),
        locator_for=lambda document: EmbeddedLocator(
            document, host, offsets,
            lambda json_text: mlir_escape(json_text, raw.decode("utf-8", "replace"))),
        parsed=known.parsed)
    source.diagnostics.extend(problems)
    if op_ is not None:
        source.ops.append(op_)


@dataclass(slots=True)
class _Results:
    """An op's named results, looked for from the op's end to its function's end."""

    index: int
    name: bytes
    start: int
    end: int
    unseen: set[int]  # the results not yet seen used


def _results_used(text: ModelText, ops: list[_CustomOp], function_sites: list[int],
                  ) -> list[tuple[bool, ...] | None]:
    """For each op: whether each of its results is used after it, up to the end of its
    function (SSA names are unique within a function); None when the results have no
    single name.

    Each op's results are first looked for near it (a search for the name, which a model
    whose results are all used ends within a few lines); those not found there, by one
    forward pass over the SSA values after them, for all of them together. The searches
    near the ops look at twice the file's bytes at most: linear either way."""
    functions = _function_starts(text, function_sites)
    used: list[tuple[bool, ...] | None] = []
    named: list[_Results] = []
    previous_end = 0
    for index, op in enumerate(ops):
        line_start = max(text.line_start(op.start), previous_end)
        written = _RESULT_NAME.search(op.read(text, line_start, op.start))
        previous_end = op.end
        if written is None:
            used.append(None if op.results else ())
            continue
        following = bisect.bisect_left(functions, op.end)
        end = functions[following] if following < len(functions) else len(text)
        named.append(_Results(index, written.group(1), op.end, end,
                              set(range(len(op.results)))))
        used.append(tuple(False for _ in op.results))
    nearby = max(_NEAR_MIN, min(_NEAR, 2 * len(text) // max(1, len(named))))
    _pass_over_values(text, [results for results in named
                             if not _used_nearby(text, results, nearby)])
    for results in named:
        op = ops[results.index]
        used[results.index] = tuple(k not in results.unseen for k in range(len(op.results)))
    return used


def _used_nearby(text: ModelText, results: _Results, window: int) -> bool:
    """Whether every result of an op is seen used within ``window`` bytes after it
    (marking those seen): in the next few lines, else in the rest of the window."""
    return any(_used_within(text, results, size) for size in (_NEAR_MIN, window)
               if size <= window)


def _used_within(text: ModelText, results: _Results, window: int) -> bool:
    name = results.name
    end = min(results.end, results.start + window) - results.start
    piece = text.read(results.start, results.start + end + len(name) + 64)
    pos = 0
    while results.unseen:
        found = piece.find(name, pos, end)
        if found < 0:
            return False
        pos = found + len(name)
        use = _SSA_USE.match(piece, found)
        if use is None or use.group(1) != name:
            continue  # a longer name
        if use.end() == len(piece) and results.start + len(piece) < len(text):
            return False  # (a name longer than the piece: left to the pass)
        if not _CodeScanner(text).is_code(results.start + found):
            continue  # in a string or a comment
        _mark(results, use)
    return True


def _mark(results: _Results, use: re.Match[bytes]) -> None:
    """The results that ``use`` (``%name`` or ``%name#k``) uses, seen."""
    if use.group(2) is None:
        results.unseen.clear()
    else:
        results.unseen.discard(int(use.group(2)))


def _pass_over_values(text: ModelText, named: list[_Results]) -> None:
    """Mark the results of ``named`` (in order) used by one forward pass over the SSA
    values after them, a piece of the file at a time, that looks only while some of them
    are waiting: from each op to the end of its function or until all its results are
    seen used."""
    waiting: dict[bytes, list[_Results]] = {}
    code = _CodeScanner(text)
    following = 0  # the next of ``named`` to wait for
    expires = len(text)  # where the first of the waiting ops' functions ends
    pos = named[0].start if named else len(text)
    while pos < len(text):
        if not waiting:
            if following == len(named):
                return
            pos = max(pos, named[following].start)  # nothing to look for before it
        piece = text.read(pos, pos + _WINDOW)
        found = piece.find(b"%")  # (a piece of weights holds none)
        base, pos = pos, pos + len(piece)
        if found < 0:
            continue
        for use in _SSA_USE.finditer(piece, found):
            at = base + use.start()
            if use.end() == len(piece) and pos < len(text):  # (the name may go on)
                pos = at
                break
            while following < len(named) and named[following].start <= at:
                waiting.setdefault(named[following].name, []).append(named[following])
                expires = min(expires, named[following].end)
                following += 1
            if at >= expires:  # functions ended: their ops are no longer looked for
                waiting = {key: kept for key, entries in waiting.items()
                           if (kept := [r for r in entries if r.end > at])}
                expires = min((r.end for rs in waiting.values() for r in rs),
                              default=len(text))
            name = use.group(1)
            if name not in waiting:
                continue
            owners = [r for r in waiting[name] if r.start <= at < r.end]
            if not owners or not code.is_code(at):
                continue
            for results in owners:
                _mark(results, use)
            waiting[name] = [r for r in waiting[name] if r.unseen]
            if not waiting[name]:
                del waiting[name]
            if not waiting and following < len(named):
                pos = base + use.end()  # look on from the next op
                break


def _function_starts(text: ModelText, sites: list[int]) -> list[int]:
    """Where each ``func.func`` name starts (not part of a longer name), in order, of the
    places where the text occurs (``sites``)."""
    starts = []
    for pos in sites:
        before, after = _bytes_around(text, pos, pos + len(FUNCTION))
        if before not in _WORD and before != _DOT and after not in _WORD and after != _DOT:
            starts.append(pos)
    return starts


def _return_sites(text: ModelText, found: list[int]) -> list[tuple[int, int]]:
    """(start, end) of every ``return`` / ``func.return`` keyword outside comments and
    strings, in file order, of the places where the text occurs (``found``)."""
    sites = []
    code = _CodeScanner(text)  # (a GLSL `return;` inside an attribute string is not one)
    for pos in found:
        end = pos + len(_RETURN)
        start = pos - 5 if pos >= 5 and text.read(pos - 5, pos) == b"func." else pos
        before, after = _bytes_around(text, start, end)
        if before not in _WORD and before != _DOT and after not in _WORD \
                and code.is_code(start):
            sites.append((start, end))
    return sites


def _returned_results(text: ModelText, op: _CustomOp, returns: list[tuple[int, int]],
                      listed: dict[int, tuple[str, ...]]) -> tuple[int, ...] | None:
    """The op's result indices in the order the function's ``return`` lists them (only
    the results it returns directly), or None when that cannot be read. ``listed``: the
    values of the returns read so far, by where they end."""
    names = _result_names(text, op)
    if not names:
        return None
    result_of = {name: k for k, name in enumerate(names)}
    if len(names) == 1:
        result_of[f"{names[0]}#0"] = 0
    following = bisect.bisect_left(returns, (op.end, 0))
    if following == len(returns):
        return None
    end = returns[following][1]
    if end not in listed:
        listed[end] = _listed_values(text, end)
    return tuple(result_of[v] for v in listed[end] if v in result_of)


class _Offsets:
    """The position map of an attribute string (``raw``, at ``base`` in the file), made
    when first asked for: from the map of the same text elsewhere in the model when
    there is one (``maps``, by text, each at offset 0)."""

    def __init__(self, raw: bytes, base: int, maps: dict[bytes, OffsetMap]) -> None:
        self._args = (raw, base, maps)
        self._map: OffsetMap | None = None

    def __call__(self) -> OffsetMap:
        if self._map is None:
            raw, base, maps = self._args
            if raw not in maps:
                maps[raw] = mlir_offsets(raw, 0)
            self._map = maps[raw].moved(base)
        return self._map


def _string_value(text: ModelText, op: _CustomOp, name: str) -> str | None:
    attribute = op.attributes.get(name)
    if attribute is None or attribute.string is None:
        return None
    raw = op.read(text, *attribute.string)
    try:
        return decode_mlir(raw, attribute.string[0])
    except EscapeError:
        return raw.decode("utf-8", "replace")


class _Parser:
    """Reads one op (or a function's signature) from ``pos`` in ``data`` (a piece of the
    file, offsets relative to it), never past ``limit``: where the next op's name starts,
    the end of the file (``last``), or the end of the piece read so far."""

    def __init__(self, data: bytes, pos: int, limit: int | None = None,
                 types: dict[bytes, TensorType] | None = None, *, last: bool = True
                 ) -> None:
        self.data = data
        self.pos = pos
        self.limit = len(data) if limit is None else limit
        self.last = last
        self.values: list[str] = []  # the SSA operands, as written
        # The types read so far, by their text: a model spells the same few again and
        # again.
        self.types = {} if types is None else types

    # -- tokens ----------------------------------------------------------------------
    def space(self) -> None:
        self.pos = _spaces_end(self.data, self.pos, self.limit)

    def peek(self, length: int = 1) -> bytes:
        self.space()
        return self.data[self.pos : min(self.pos + length, self.limit)]

    def found(self) -> str:
        """What is at the cursor, for a message."""
        if self.pos >= self.limit:
            return "end of file" if self.last else OP_NAME.decode()
        shown = self.data[self.pos : min(self.pos + 12, self.limit)].split(b"\n")[0]
        return shown.decode("utf-8", "replace") or "end of file"

    def ended(self) -> str:
        return "unexpected end of file" if self.last else \
            f"unexpected `{OP_NAME.decode()}`: this op's brackets are not closed before " \
            "the next op"

    def expect(self, token: bytes, what: str) -> None:
        if self.peek(len(token)) != token:
            raise _SyntaxError(f"expected {what}, found `{self.found()}`", self.pos)
        self.pos += len(token)

    def string(self) -> tuple[int, int]:
        """A string literal at the cursor: the span of its contents. Its end is found by
        a search for the next quote (an attribute string of a model is tens of kilobytes
        of JSON, whose quotes printers write ``\\22``); when that quote is escaped, by
        the string's grammar."""
        data, start = self.data, self.pos
        quote = data.find(b'"', start + 1, self.limit)
        if quote >= 0 and data[quote - 1] != _BACKSLASH and \
                data.find(b"\n", start, quote) < 0:
            self.pos = quote + 1
            return start + 1, quote
        match = _STRING.match(data, start, self.limit)
        if match is None:
            raise _SyntaxError("unterminated string (MLIR strings end on the same line)",
                               start)
        self.pos = match.end()
        return match.start() + 1, match.end() - 1

    def name(self, bare: re.Pattern[bytes], what: str) -> str:
        """A name at the cursor: a string literal's contents (as written), or ``bare``."""
        if self.data[self.pos : self.pos + 1] == b'"' and self.pos < self.limit:
            start, end = self.string()
            return self.data[start:end].decode("utf-8", "replace")
        match = bare.match(self.data, self.pos, self.limit)
        if match is None:
            raise _SyntaxError(f"expected {what}", self.pos)
        self.pos = match.end()
        return match.group().decode()

    def skip_value(self, stops: bytes) -> None:
        """Skip one attribute value or type: up to a stop byte at nesting depth 0."""
        data = self.data
        depth = 0
        start = self.pos
        while self.pos < self.limit:
            plain = _PLAIN.match(data, self.pos, self.limit)
            if plain is not None:  # (a run of bytes that neither nest nor stop)
                self.pos = plain.end()
                continue
            char = data[self.pos]
            if char == _QUOTE:
                self.string()
                continue
            if char == _DASH and data[self.pos + 1 : self.pos + 2] == b">" \
                    and self.pos + 1 < self.limit:
                self.pos += 2
                continue
            if depth == 0 and char in stops:
                break
            if char in _OPEN:
                depth += 1
            elif char in _CLOSE:
                if depth == 0:
                    break
                depth -= 1
            self.pos += 1
        if depth:
            raise _SyntaxError(self.ended(), start)
        if self.pos == start:
            raise _SyntaxError("expected a value", start)

    # -- a function's signature ------------------------------------------------------
    def function(self) -> tuple[str, str | None, tuple[tuple[str, TensorType], ...],
                                tuple[TensorType, ...]]:
        """``[visibility] @name(%arg: type {attrs}, ...) [-> results]``, just after the
        ``func.func`` keyword."""
        visibility = None
        word = _BARE_ID.match(self.data, _spaces_end(self.data, self.pos, self.limit),
                              self.limit)
        if word is not None and word.group() in (b"public", b"private", b"nested"):
            visibility = word.group().decode()
            self.pos = word.end()
        self.expect(b"@", "`@` and the function's name")
        name = self.name(_SYMBOL, "the function's name")
        self.expect(b"(", "`(` and the arguments")
        arguments: list[tuple[str, TensorType]] = []
        while self.peek() != b")":
            match = _SSA.match(self.data, self.pos, self.limit)
            if match is None:
                raise _SyntaxError("expected an argument", self.pos)
            self.pos = match.end()
            self.expect(b":", "`:` and the argument's type")
            arguments.append((match.group().decode(), self.single_type(b",){")))
            self.trailing_attributes()
            if self.peek() == b",":
                self.pos += 1
            elif self.peek() != b")":
                raise _SyntaxError("expected `,` or `)` after an argument", self.pos)
        self.pos += 1
        results: list[TensorType] = []
        if self.peek(2) == b"->":
            self.pos += 2
            if self.peek() == b"(":
                self.pos += 1
                while self.peek() != b")":
                    results.append(self.single_type(b",){"))
                    self.trailing_attributes()
                    if self.peek() == b",":
                        self.pos += 1
                    elif self.peek() != b")":
                        raise _SyntaxError("expected `,` or `)` after a result type",
                                           self.pos)
                self.pos += 1
            else:
                results.append(self.single_type(b",){"))
        return name, visibility, tuple(arguments), tuple(results)

    def trailing_attributes(self) -> None:
        """An argument's or result's attribute dictionary and location, if written."""
        for opening in (b"{", b"loc("):
            if self.peek(len(opening)) == opening:
                self.skip_value(b",)")

    # -- the op ------------------------------------------------------------------------
    def op(self, start: int, generic: bool) -> _CustomOp:
        op = _CustomOp(start, self.pos)
        if generic:
            self.expect(b"(", "`(` and the operands")
            self.operands(b")")
            op.operand_values = tuple(self.values)
            self.expect(b")", "`)` after the operands")
            if self.peek(2) == b"<{":
                self.pos += 1
                self.attribute_dict(op)
                self.expect(b">", "`>` closing the properties")
            if self.peek() == b"{":
                self.attribute_dict(op)
        else:
            self.operands(b"{:")
            op.operand_values = tuple(self.values)
            if self.peek() == b"{":
                self.attribute_dict(op)
        self.expect(b":", "`:` and the op's type signature")
        op.operands = self.type_list()
        self.expect(b"->", "`->` and the result types")
        if self.peek() == b"(":
            op.results = self.type_list()
        else:
            op.results = (self.single_type(),)
        op.end = self.pos
        return op

    def operands(self, stops: bytes) -> None:
        while True:
            char = self.peek()
            if char == b"%":
                match = _SSA.match(self.data, self.pos, self.limit)
                if match is None:
                    raise _SyntaxError("expected an SSA value name after `%`", self.pos)
                self.pos = match.end()
                self.values.append(match.group().decode())
                if self.peek() == b",":
                    self.pos += 1
                continue
            if char and char in stops:
                return
            raise _SyntaxError(f"expected an operand or the attributes, found "
                               f"`{self.found()}`", self.pos)

    def attribute_dict(self, op: _CustomOp) -> None:
        self.expect(b"{", "`{`")
        while True:
            char = self.peek()
            if char == b"}":
                self.pos += 1
                return
            key_start = self.pos
            key = self.name(_BARE_ID, "an attribute name")
            if self.peek() == b"=":
                self.pos += 1
                self.space()
                value_start = self.pos
                string = None
                if self.data[self.pos : self.pos + 1] == b'"' and self.pos < self.limit:
                    string = self.string()
                else:
                    self.skip_value(b",}")
                attribute = _Attribute(key_start, value_start, self.pos, string)
            else:  # a unit attribute
                attribute = _Attribute(key_start, key_start, self.pos)
            op.attributes.setdefault(key, attribute)
            if self.peek() == b",":
                self.pos += 1
            elif self.peek() != b"}":
                raise _SyntaxError("expected `,` or `}` in the attribute dictionary",
                                   self.pos)

    def type_list(self) -> tuple[TensorType, ...]:
        self.expect(b"(", "`(` and a list of types")
        types: list[TensorType] = []
        if self.peek() == b")":
            self.pos += 1
            return ()
        while True:
            types.append(self.single_type(b",)\n"))
            if self.peek() == b",":
                self.pos += 1
                continue
            self.expect(b")", "`)` closing the type list")
            return tuple(types)

    def single_type(self, stops: bytes = b",)}\n ") -> TensorType:
        self.space()
        start = self.pos
        self.skip_value(stops + b" \t\r")
        written = self.data[start : self.pos]
        found = self.types.get(written)
        if found is None:
            found = self.types[written] = parse_type(written.decode("utf-8", "replace"))
        return found
