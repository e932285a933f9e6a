"""TOSA MLIR text: every ``tosa.custom`` op, in pretty or generic form.

The file is read once. ``tosa.custom`` is found with one regular-expression pass; each hit
is confirmed to be code (not inside a string or a comment: MLIR strings and comments end
at the line's end, so only the hit's line is looked at) and its op is read from there:
the attribute dictionary (``{...}``, or properties ``<{...}>`` in generic form) and the
type signature ``(operand types) -> result types``. Ops of other domains are skipped
before their attributes are decoded.

Positions: the implementation_attrs string is decoded (MLIR escapes), parsed as JSON, and
a diagnostic's pointer is mapped back through both to a line and column of the .mlir file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..config import Options
from .base import EmbeddedLocator, SourceFile, TextFile
from .context import OpContext, TensorType, domain_kind, parse_type
from .embedded import embedded_op
from .escapes import EscapeError, decode_mlir, mlir_offsets
from .io import decode_text
from .reading_rules import MISSING_ATTRS, MLIR_SYNTAX

_CANDIDATE = re.compile(r'"tosa\.custom"(?=\s*\()|(?<![\w.$%#@!"])tosa\.custom(?![\w.$])')
# On one line: a string literal (possibly unterminated) or the start of a comment.
_LINE_TOKEN = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"?|//')
_STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_SPACE = re.compile(r"(?:\s+|//[^\n]*)*")
_SSA = re.compile(r"%[\w$.-]+(?:#\d+)?")
_BARE_ID = re.compile(r"[A-Za-z_][\w$.-]*")
_OPEN = {"<": ">", "(": ")", "[": "]", "{": "}"}
_CLOSE = set(_OPEN.values())


class _SyntaxError(ValueError):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass
class _Attribute:
    key_start: int
    value_start: int
    value_end: int
    # For a string value: the contents' span (inside the quotes).
    string: tuple[int, int] | None = None


@dataclass
class _CustomOp:
    start: int
    name_end: int
    attributes: dict[str, _Attribute] = field(default_factory=dict)
    operands: tuple[TensorType, ...] = ()
    results: tuple[TensorType, ...] = ()
    operand_values: tuple[str, ...] = ()
    end: int = 0


def read_mlir(data: bytes | str, path: str | None, options: Options) -> SourceFile:
    text, problem = decode_text(data, path)
    source = SourceFile(path)
    if problem is not None:
        source.diagnostics.append(problem)
        return source
    host = TextFile(text, path)
    source.text = host
    for match in _CANDIDATE.finditer(text):
        if not _is_code(text, match.start()):
            continue
        try:
            op = _Parser(text, match.end()).op(match.start(), match.group().startswith('"'))
        except _SyntaxError as exc:
            source.diagnostics.append(MLIR_SYNTAX.at(
                "", f"cannot read this tosa.custom op: {exc.message}").located(
                host.location(exc.offset)))
            continue
        _add_op(source, host, op, options)
    return source


def _is_code(text: str, pos: int) -> bool:
    """Whether ``pos`` is outside strings and comments (MLIR has neither across lines)."""
    line_start = text.rfind("\n", 0, pos) + 1
    for token in _LINE_TOKEN.finditer(text, line_start, pos + 1):
        if token.start() >= pos:
            return True
        if token.group() == "//" or token.end() > pos:
            return False
    return True


def _add_op(source: SourceFile, host: TextFile, op: _CustomOp, options: Options) -> None:
    text = host.text
    domain = _string_value(text, op, "domain_name")
    if domain_kind(domain) == "other":
        return
    context = OpContext(operator_name=_string_value(text, op, "operator_name"),
                        domain_name=domain, operands=op.operands, results=op.results,
                        operand_values=op.operand_values,
                        results_used=_results_used(text, op))
    context.places["op"] = host.location(op.start, op.name_end)
    for name in ("operator_name", "domain_name"):
        attribute = op.attributes.get(name)
        if attribute is not None:
            context.places[name] = host.location(attribute.value_start, attribute.value_end)
    attrs = op.attributes.get("implementation_attrs")
    if attrs is None or attrs.string is None:
        what = "has no implementation_attrs" if attrs is None else \
            "has an implementation_attrs that is not a string"
        where = context.places["op"] if attrs is None else \
            host.location(attrs.value_start, attrs.value_end)
        source.diagnostics.append(MISSING_ATTRS.at("", f"the custom op {what}").located(where))
        return
    start, end = attrs.string
    try:
        json_text = decode_mlir(text, start, end)
    except EscapeError as exc:
        source.diagnostics.append(MLIR_SYNTAX.at(
            "", f"cannot read implementation_attrs: {exc.message}").located(
            host.location(exc.offset)))
        return
    offsets = _Offsets(text, start, end)
    op_, problems = embedded_op(
        json_text, source.path, options, context=context,
        place_offset=lambda offset: host.location(offsets().host(offset)),
        locator_for=lambda document: EmbeddedLocator(document, host, offsets))
    source.diagnostics.extend(problems)
    if op_ is not None:
        source.ops.append(op_)


_RESULT_NAME = re.compile(r"(%[\w$.-]+)(?::\d+)?\s*=\s*\Z")
_FUNCTION = re.compile(r"(?<![\w.])func\.func(?![\w.])")


def _results_used(text: str, op: _CustomOp) -> tuple[bool, ...] | None:
    """Whether each result is used after the op, up to the end of its function (SSA
    names are unique within a function). None when the results have no single name."""
    line_start = text.rfind("\n", 0, op.start) + 1
    named = _RESULT_NAME.search(text, line_start, op.start)
    if named is None:
        return None if op.results else ()
    name = named.group(1)
    following = _FUNCTION.search(text, op.end)
    end = following.start() if following else len(text)
    uses = re.compile(re.escape(name) + r"(?:#(\d+))?(?![\w$.-])")
    used: set[int] = set()
    whole = False
    for use in uses.finditer(text, op.end, end):
        if not _is_code(text, use.start()):
            continue
        if use.group(1) is None:
            whole = True
        else:
            used.add(int(use.group(1)))
    return tuple(whole or k in used for k in range(len(op.results)))


class _Offsets:
    def __init__(self, text: str, start: int, end: int) -> None:
        self._args = (text, start, end)
        self._map = None

    def __call__(self):
        if self._map is None:
            self._map = mlir_offsets(*self._args)
        return self._map


def _string_value(text: str, op: _CustomOp, name: str) -> str | None:
    attribute = op.attributes.get(name)
    if attribute is None or attribute.string is None:
        return None
    try:
        return decode_mlir(text, *attribute.string)
    except EscapeError:
        return text[attribute.string[0] : attribute.string[1]]


class _Parser:
    """Reads one op from just after its name. Offsets are into the whole file."""

    def __init__(self, text: str, pos: int) -> None:
        self.text = text
        self.pos = pos
        self.values: list[str] = []  # the SSA operands, as written

    # -- tokens ----------------------------------------------------------------------
    def space(self) -> None:
        self.pos = _SPACE.match(self.text, self.pos).end()

    def peek(self, length: int = 1) -> str:
        self.space()
        return self.text[self.pos : self.pos + length]

    def expect(self, token: str, what: str) -> None:
        if self.peek(len(token)) != token:
            found = self.text[self.pos : self.pos + 12].split("\n")[0] or "end of file"
            raise _SyntaxError(f"expected {what}, found `{found}`", self.pos)
        self.pos += len(token)

    def string(self) -> tuple[int, int]:
        """A string literal at the cursor: the span of its contents."""
        match = _STRING.match(self.text, self.pos)
        if match is None:
            raise _SyntaxError("unterminated string (MLIR strings end on the same line)",
                               self.pos)
        self.pos = match.end()
        return match.start() + 1, match.end() - 1

    def skip_value(self, stops: str) -> None:
        """Skip one attribute value or type: up to a stop character at nesting depth 0."""
        text = self.text
        depth = 0
        start = self.pos
        while self.pos < len(text):
            char = text[self.pos]
            if char == '"':
                self.string()
                continue
            if char == "-" and text.startswith("->", self.pos):
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
            raise _SyntaxError("unexpected end of file", start)
        if self.pos == start:
            raise _SyntaxError("expected a value", start)

    # -- the op ------------------------------------------------------------------------
    def op(self, start: int, generic: bool) -> _CustomOp:
        op = _CustomOp(start, self.pos)
        if generic:
            self.expect("(", "`(` and the operands")
            self.operands(")")
            op.operand_values = tuple(self.values)
            self.expect(")", "`)` after the operands")
            if self.peek(2) == "<{":
                self.pos += 1
                self.attribute_dict(op)
                self.expect(">", "`>` closing the properties")
            if self.peek() == "{":
                self.attribute_dict(op)
        else:
            self.operands("{:")
            op.operand_values = tuple(self.values)
            if self.peek() == "{":
                self.attribute_dict(op)
        self.expect(":", "`:` and the op's type signature")
        op.operands = self.type_list()
        self.expect("->", "`->` and the result types")
        if self.peek() == "(":
            op.results = self.type_list()
        else:
            op.results = (self.single_type(),)
        op.end = self.pos
        return op

    def operands(self, stops: str) -> None:
        while True:
            char = self.peek()
            if char == "%":
                match = _SSA.match(self.text, self.pos)
                if match is None:
                    raise _SyntaxError("expected an SSA value name after `%`", self.pos)
                self.pos = match.end()
                self.values.append(match.group())
                if self.peek() == ",":
                    self.pos += 1
                continue
            if char and char in stops:
                return
            found = self.text[self.pos : self.pos + 12].split("\n")[0] or "end of file"
            raise _SyntaxError(f"expected an operand or the attributes, found `{found}`",
                               self.pos)

    def attribute_dict(self, op: _CustomOp) -> None:
        self.expect("{", "`{`")
        while True:
            char = self.peek()
            if char == "}":
                self.pos += 1
                return
            key_start = self.pos
            if char == '"':
                start, end = self.string()
                key = self.text[start:end]
            else:
                match = _BARE_ID.match(self.text, self.pos)
                if match is None:
                    raise _SyntaxError("expected an attribute name", self.pos)
                key = match.group()
                self.pos = match.end()
            if self.peek() == "=":
                self.pos += 1
                self.space()
                value_start = self.pos
                string = None
                if self.text.startswith('"', self.pos):
                    string = self.string()
                else:
                    self.skip_value(",}")
                attribute = _Attribute(key_start, value_start, self.pos, string)
            else:  # a unit attribute
                attribute = _Attribute(key_start, key_start, self.pos)
            op.attributes.setdefault(key, attribute)
            if self.peek() == ",":
                self.pos += 1
            elif self.peek() != "}":
                raise _SyntaxError("expected `,` or `}` in the attribute dictionary",
                                   self.pos)

    def type_list(self) -> tuple[TensorType, ...]:
        self.expect("(", "`(` and a list of types")
        types: list[TensorType] = []
        if self.peek() == ")":
            self.pos += 1
            return ()
        while True:
            types.append(self.single_type(",)\n"))
            if self.peek() == ",":
                self.pos += 1
                continue
            self.expect(")", "`)` closing the type list")
            return tuple(types)

    def single_type(self, stops: str = ",)}\n ") -> TensorType:
        self.space()
        start = self.pos
        self.skip_value(stops + " \t\r")
        return parse_type(self.text[start : self.pos])
