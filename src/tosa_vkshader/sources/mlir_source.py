"""TOSA MLIR text: every ``tosa.custom`` op, in pretty or generic form.

The file is read once, in time linear in its size whatever it holds. ``tosa.custom`` is
found by plain substring search; each hit is confirmed to be code (not inside a string or
a comment: MLIR strings and comments end at the line's end) by a scanner that only moves
forward, so no character is tokenized twice. Each op is then read from its name up to the
next op's name at most (a ``tosa.custom`` op has no regions, so it cannot contain another
one): the attribute dictionary (``{...}``, or properties ``<{...}>`` in generic form) and
the type signature ``(operand types) -> result types``. An unclosed bracket therefore
costs the rest of its own op, never the rest of the file. Ops of other domains are
skipped before their attributes are decoded.

The text is the file's UTF-8 bytes (:class:`~.modeltext.ModelText`; a large model is
read through a memory map, a block at a time): offsets are byte offsets, and only what is
read (an op, a name, a type) is decoded. Positions: the implementation_attrs string is
decoded (MLIR escapes), parsed as JSON, and a diagnostic's pointer is mapped back through
both to a line and column of the .mlir file.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..config import Options
from ..op_context import OpContext, TensorType, domain_kind, parse_type
from .base import EmbeddedLocator, SourceFile
from .embedded import embedded_op
from .escapes import EscapeError, decode_mlir, mlir_escape, mlir_offsets
from .modeltext import ModelText
from .reading_rules import MISSING_ATTRS, MLIR_SYNTAX

if TYPE_CHECKING:
    from mmap import mmap

OP_NAME = b"tosa.custom"
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
_SSA = re.compile(rb"%[\w$.-]+(?:#\d+)?")
_BARE_ID = re.compile(rb"[A-Za-z_][\w$.-]*")
_SYMBOL = re.compile(rb"[\w$.-]+")
_OPEN = {ord(o): ord(c) for o, c in ("<>", "()", "[]", "{}")}
_CLOSE = frozenset(_OPEN.values())
_QUOTE, _DASH, _BACKSLASH = ord('"'), ord("-"), ord("\\")
# Bytes that neither open, close nor stop a value (stops: `,`, `:`, `}`, `)`, white space).
_PLAIN = re.compile(rb'[^"\-<>()\[\]{},:\s]+')


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


@dataclass(slots=True)
class _CustomOp:
    start: int
    name_end: int
    attributes: dict[str, _Attribute] = field(default_factory=dict)
    operands: tuple[TensorType, ...] = ()
    results: tuple[TensorType, ...] = ()
    operand_values: tuple[str, ...] = ()
    end: int = 0


def read_mlir(data: bytes | str | mmap, path: str | None, options: Options) -> SourceFile:
    """The VulkanCustomShader ops of a model: its bytes (or a memory map of its file), or
    its text."""
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
            ops.append(_Parser(host.data, end, limit, types).op(start, generic))
        except _SyntaxError as exc:
            source.diagnostics.append(MLIR_SYNTAX.at(
                "", f"cannot read this tosa.custom op: {exc.message}").located(
                host.location(exc.offset)))
    returns = _return_sites(host.data, sites[_RETURN]) if ops else []
    listed: dict[int, tuple[str, ...]] = {}
    for op, used in zip(ops, _results_used(host, ops, sites[FUNCTION]), strict=True):
        _add_op(source, host, op, options, used, returns, listed)
    return source


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
    data = model.data
    sites = []
    found = candidates(model)
    types: dict[bytes, TensorType] = {}
    for index, (start, end, generic) in enumerate(found):
        limit = found[index + 1][0] if index + 1 < len(found) else len(data)
        try:
            op = _Parser(data, end, limit, types).op(start, generic)
        except _SyntaxError:
            continue  # read_mlir reports it
        if domain_kind(_string_value(data, op, "domain_name")) == "other":
            continue
        attrs = op.attributes.get("implementation_attrs")
        sites.append(CustomOpSite(start, op.name_end,
                                  attrs.string if attrs is not None else None,
                                  op.operands, op.results,
                                  _result_names(data, op.start)))
    return sites


def _result_names(data: bytes | mmap, start: int) -> tuple[str, ...]:
    """How the results of the op whose name starts at ``start`` are referred to, as its
    line names them (``%a, %b = ...``, ``%0:2 = ...``: ``%0#0``, ``%0#1``)."""
    line_start = data.rfind(b"\n", 0, start) + 1
    names = _RESULT_NAMES.search(data, line_start, start)
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
    data = model.data
    sites = keyword_sites(model)
    starts = _function_starts(data, sites[FUNCTION])
    returns = _return_sites(data, sites[_RETURN])
    code = _CodeScanner(data)
    functions = []
    for index, start in enumerate(starts):
        if not code.is_code(start):
            continue
        limit = starts[index + 1] if index + 1 < len(starts) else len(data)
        try:
            name, visibility, arguments, results = \
                _Parser(data, start + len(FUNCTION), limit).function()
        except _SyntaxError:
            continue
        following = bisect.bisect_left(returns, (start, 0))
        returned = None
        if following < len(returns) and returns[following][0] < limit:
            returned = _listed_values(data, returns[following][1])
        functions.append(Function(name, visibility, arguments, results, returned))
    return functions


def _listed_values(data: bytes | mmap, end: int) -> tuple[str, ...]:
    """The SSA values a ``return`` that ends at ``end`` lists (up to its types)."""
    line_end = data.find(b"\n", end)
    operands = data[end : line_end if line_end >= 0 else len(data)]
    return tuple(v.decode() for v in _SSA.findall(operands.partition(b":")[0]))


def keyword_sites(text: ModelText) -> dict[bytes, list[int]]:
    """Where each of ``tosa.custom``, ``func.func`` and ``return`` starts in ``text``, in
    order (code or not: callers judge). Found in the one pass over the file that
    :meth:`ModelText.scan` makes (which also finds the lines and checks UTF-8), from the
    file's ``u`` bytes, which each of the words holds: a search for one byte runs at
    memory speed, a search for a word five times slower, and weights (hex digits) hold
    no ``u``."""
    data = text.data
    sites: dict[bytes, list[int]] = {word: [] for word in _KEYWORDS}

    def visit(block: bytes, offset: int) -> None:
        pos = block.find(b"u")
        while pos >= 0:
            before = block[pos - 1] if pos else data[offset - 1] if offset else -1
            word = _KEYWORDS_BY_BYTE_BEFORE_U.get(before)
            if word is not None:
                start = pos - word.index(b"u")
                if 0 <= start and start + len(word) <= len(block):
                    found = block.startswith(word, start)
                else:  # (across the block's edge)
                    at = offset + start
                    found = at >= 0 and data[at : at + len(word)] == word
                if found:
                    sites[word].append(offset + start)
            pos = block.find(b"u", pos + 1)

    text.scan(visit)
    return sites


def candidates(text: ModelText | bytes | str, sites: list[int] | None = None,
               ) -> list[tuple[int, int, bool]]:
    """(start, end, generic form) of every ``tosa.custom`` op name that is code, in order
    (``sites``: where the name occurs, when already found by :func:`keyword_sites`).

    Linear: one pass over the file, and a :class:`_CodeScanner` that tokenizes each line
    at most once however many names it holds."""
    model = text if isinstance(text, ModelText) else ModelText.of(text)
    data = model.data
    found = []
    code = _CodeScanner(data)
    size = len(OP_NAME)
    for pos in keyword_sites(model)[OP_NAME] if sites is None else sites:
        end = pos + size
        before = data[pos - 1] if pos else -1
        after = data[end] if end < len(data) else -1
        if before == _QUOTE and after == _QUOTE:  # generic form: "tosa.custom"(...)
            if data[_spaces_end(data, end + 1) : _spaces_end(data, end + 1) + 1] == b"(" \
                    and code.is_code(pos - 1):
                found.append((pos - 1, end + 1, True))
        elif before not in _NOT_BEFORE and after not in _NOT_AFTER and code.is_code(pos):
            found.append((pos, end, False))
    return found


_SPACE_ONLY = re.compile(rb"\s*")


def _spaces_end(data: bytes | mmap, pos: int, limit: int | None = None) -> int:
    """Where the white space (and comments, up to ``limit``) from ``pos`` ends."""
    found = (_SPACE_ONLY.match(data, pos) if limit is None
             else _SPACE.match(data, pos, limit))
    assert found is not None  # (both patterns match the empty string)
    return found.end()


class _CodeScanner:
    """Whether positions, asked in increasing order, are code (outside strings and
    comments). The scan position only moves forward: a string or comment that holds many
    candidates is tokenized once, and skipped for every candidate inside it."""

    def __init__(self, data: bytes | mmap) -> None:
        self.data = data
        self.scanned = 0  # tokens before this are known; it is never inside a token
        self.blocked_until = 0  # the end of the string or comment last found

    def is_code(self, pos: int) -> bool:
        if pos < self.blocked_until:
            return False
        data = self.data
        newline = data.rfind(b"\n", self.scanned, pos)
        if newline >= 0:  # strings and comments end at the line's end
            self.scanned = newline + 1
        for token in _LINE_TOKEN.finditer(data, self.scanned, pos + 1):
            if token.start() >= pos:
                break
            if token.group() == b"//" or token.end() > pos:
                whole = _LINE_TOKEN.match(data, token.start())
                assert whole is not None  # (the token just found)
                end = whole.end() if token.group() != b"//" else data.find(b"\n", pos)
                self.blocked_until = self.scanned = len(data) if end < 0 else end
                return False
        self.scanned = pos
        return True


def _add_op(source: SourceFile, host: ModelText, op: _CustomOp, options: Options,
            results_used: tuple[bool, ...] | None, returns: list[tuple[int, int]],
            listed: dict[int, tuple[str, ...]]) -> None:
    data = host.data
    domain = _string_value(data, op, "domain_name")
    if domain_kind(domain) == "other":
        return
    context = OpContext(operator_name=_string_value(data, op, "operator_name"),
                        domain_name=domain, operands=op.operands, results=op.results,
                        operand_values=op.operand_values, results_used=results_used,
                        returned=_returned_results(data, op, returns, listed),
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
    try:
        json_text = decode_mlir(data, start, end)
    except EscapeError as exc:
        source.diagnostics.append(MLIR_SYNTAX.at(
            "", f"cannot read implementation_attrs: {exc.message}").located(
            host.location(exc.offset)))
        return
    offsets = _Offsets(data, start, end)
    op_, problems = embedded_op(
        json_text, source.path, options, context=context,
        place_offset=lambda offset: host.location(offsets().host(offset)),
        locator_for=lambda document: EmbeddedLocator(
            document, host, offsets,
            lambda json_text: mlir_escape(json_text, host.decode(start, end))))
    source.diagnostics.extend(problems)
    if op_ is not None:
        source.ops.append(op_)


_RESULT_NAME = re.compile(rb"(%[\w$.-]+)(?::\d+)?\s*=\s*\Z")
_SSA_USE = re.compile(rb"(%[\w$.-]+)(?:#(\d+))?")
_WINDOW = 1 << 14
# How far after an op its results are looked for first (less when there are many ops).
_NEAR, _NEAR_MIN = 1 << 16, 1 << 10
FUNCTION = b"func.func"


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
    data = text.data
    functions = _function_starts(data, function_sites)
    used: list[tuple[bool, ...] | None] = []
    named: list[_Results] = []
    previous_end = 0
    for index, op in enumerate(ops):
        line_start = max(data.rfind(b"\n", previous_end, op.start) + 1, previous_end)
        written = _RESULT_NAME.search(data, line_start, op.start)
        previous_end = op.end
        if written is None:
            used.append(None if op.results else ())
            continue
        following = bisect.bisect_left(functions, op.end)
        end = functions[following] if following < len(functions) else len(data)
        named.append(_Results(index, written.group(1), op.end, end,
                              set(range(len(op.results)))))
        used.append(tuple(False for _ in op.results))
    every_named = named
    nearby = max(_NEAR_MIN, min(_NEAR, 2 * len(data) // max(1, len(named))))
    named = [results for results in named if not _used_nearby(data, results, nearby)]
    waiting: dict[bytes, list[_Results]] = {}
    code = _CodeScanner(data)
    following = 0  # the next of ``named`` to wait for
    expires = len(data)  # where the first of the waiting ops' functions ends
    pos = named[0].start if named else len(data)
    for _, block_end in text.blocks(pos):
        while pos < block_end:
            if not waiting:
                if following == len(named):
                    break
                pos = max(pos, named[following].start)  # nothing to look for before it
            found = data.find(b"%", pos, block_end)  # (weights hold none)
            if found < 0:
                pos = block_end
                break
            # The SSA values of a window from there (a regular expression over a few
            # lines at a time; a weight's megabytes of hex are skipped by the search).
            pos = window = min(found + _WINDOW, len(data))
            for use in _SSA_USE.finditer(data, found, window):
                at = use.start()
                if use.end() == window < len(data):  # (the name may go on)
                    pos = at
                    break
                while following < len(named) and named[following].start <= at:
                    waiting.setdefault(named[following].name, []).append(named[following])
                    expires = min(expires, named[following].end)
                    following += 1
                if at >= expires:  # functions ended: their ops are no longer looked for
                    waiting = _still_waiting(waiting, at)
                    expires = min((r.end for rs in waiting.values() for r in rs),
                                  default=len(data))
                if use.group(1) in waiting:
                    _seen(waiting, use.group(1), use, code)
                    if not waiting and following < len(named):
                        pos = use.end()  # look on from the next op
                        break
        if following == len(named) and not waiting:
            break
    for results in every_named:
        op = ops[results.index]
        used[results.index] = tuple(k not in results.unseen for k in range(len(op.results)))
    return used


def _used_nearby(data: bytes | mmap, results: _Results, window: int) -> bool:
    """Whether every result of an op is seen used within ``window`` bytes after it
    (marking those seen)."""
    name = results.name
    pos, end = results.start, min(results.end, results.start + window)
    while results.unseen:
        found = data.find(name, pos, end)
        if found < 0:
            return False
        pos = found + len(name)
        use = _SSA_USE.match(data, found)
        if use is None or use.group(1) != name or not _CodeScanner(data).is_code(found):
            continue  # a longer name, or in a string or comment
        if use.group(2) is None:
            results.unseen.clear()
        else:
            results.unseen.discard(int(use.group(2)))
    return True


def _seen(waiting: dict[bytes, list[_Results]], name: bytes, use: re.Match[bytes],
          code: _CodeScanner) -> None:
    """Mark the results that ``use`` uses (of the ops waiting under its name that it is
    in the function of), when it is code; an op all of whose results are seen used is
    no longer waited for."""
    at = use.start()
    owners = [r for r in waiting[name] if r.start <= at < r.end]
    if not owners or not code.is_code(at):
        return
    for results in owners:
        if use.group(2) is None:
            results.unseen.clear()
        else:
            results.unseen.discard(int(use.group(2)))
    waiting[name] = [r for r in waiting[name] if r.unseen]
    if not waiting[name]:
        del waiting[name]


def _still_waiting(waiting: dict[bytes, list[_Results]], pos: int,
                   ) -> dict[bytes, list[_Results]]:
    """``waiting`` less the ops whose function ends before ``pos``."""
    return {name: kept for name, entries in waiting.items()
            if (kept := [r for r in entries if r.end > pos])}


def _function_starts(data: bytes | mmap, sites: list[int]) -> list[int]:
    """Where each ``func.func`` name starts (not part of a longer name), in order, of the
    places where the text occurs (``sites``)."""
    starts = []
    for pos in sites:
        end = pos + len(FUNCTION)
        before = data[pos - 1] if pos else -1
        after = data[end] if end < len(data) else -1
        if before not in _WORD and before != _DOT and after not in _WORD and after != _DOT:
            starts.append(pos)
    return starts


_RESULT_NAMES = re.compile(rb"(%[\w$.-]+(?::\d+)?(?:\s*,\s*%[\w$.-]+)*)\s*=\s*\"?\Z")
_RETURN = b"return"
_DOT = ord(".")
_KEYWORDS = (OP_NAME, FUNCTION, _RETURN)
# The byte before the first ``u`` of each keyword: c, f, t.
_KEYWORDS_BY_BYTE_BEFORE_U = {word[word.index(b"u") - 1]: word for word in _KEYWORDS}


def _return_sites(data: bytes | mmap, found: list[int]) -> list[tuple[int, int]]:
    """(start, end) of every ``return`` / ``func.return`` keyword outside comments and
    strings, in file order, of the places where the text occurs (``found``)."""
    sites = []
    code = _CodeScanner(text)  # (a GLSL `return;` inside an attribute string is not one)
    for pos in found:
        end = pos + len(_RETURN)
        start = pos - 5 if pos >= 5 and data[pos - 5 : pos] == b"func." else pos
        before = data[start - 1] if start > 0 else -1
        after = data[end] if end < len(data) else -1
        if before not in _WORD and before != _DOT and after not in _WORD:
            prefix = data[data.rfind(b"\n", 0, start) + 1 : start]
            # Neither a comment nor a string spans lines in MLIR.
            if b"//" not in prefix and prefix.count(b'"') % 2 == 0:
                sites.append((start, end))
    return sites


def _returned_results(data: bytes | mmap, op: _CustomOp, returns: list[tuple[int, int]],
                      listed: dict[int, tuple[str, ...]]) -> tuple[int, ...] | None:
    """The op's result indices in the order the function's ``return`` lists them (only
    the results it returns directly), or None when that cannot be read. ``listed``: the
    values of the returns read so far, by where they end."""
    names = _result_names(data, op.start)
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
        listed[end] = _listed_values(data, end)
    return tuple(result_of[v] for v in listed[end] if v in result_of)


class _Offsets:
    def __init__(self, data: bytes | mmap, start: int, end: int) -> None:
        self._args = (data, start, end)
        self._map = None

    def __call__(self):
        if self._map is None:
            self._map = mlir_offsets(*self._args)
        return self._map


def _string_value(data: bytes | mmap, op: _CustomOp, name: str) -> str | None:
    attribute = op.attributes.get(name)
    if attribute is None or attribute.string is None:
        return None
    try:
        return decode_mlir(data, *attribute.string)
    except EscapeError:
        return data[attribute.string[0] : attribute.string[1]].decode("utf-8", "replace")


class _Parser:
    """Reads one op from just after its name, never past ``limit`` (where the next op's
    name starts, or the end of the file). Offsets are into the whole file."""

    def __init__(self, data: bytes | mmap, pos: int, limit: int | None = None,
                 types: dict[bytes, TensorType] | None = None) -> None:
        self.data = data
        self.pos = pos
        self.limit = len(data) if limit is None else limit
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
            return "end of file" if self.limit == len(self.data) else OP_NAME.decode()
        shown = self.data[self.pos : min(self.pos + 12, self.limit)].split(b"\n")[0]
        return shown.decode("utf-8", "replace") or "end of file"

    def ended(self) -> str:
        return "unexpected end of file" if self.limit == len(self.data) else \
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
