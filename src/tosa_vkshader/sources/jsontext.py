"""JSON text with positions.

Parsing uses the C decoder in :mod:`json` (fast); positions are computed only when a
diagnostic needs one, by a small scanner that maps JSON pointers to offsets. Problems
with the text itself (bad UTF-8, syntax, duplicate keys, NaN, absurd nesting or size)
become diagnostics, never exceptions.
"""

from __future__ import annotations

import bisect
import json
import math
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from ..diagnostics import (
    Diagnostic,
    InnerPosition,
    Location,
    pointer_join,
)
from ..rule_registry import rule

if TYPE_CHECKING:
    from typing import Any

DEFAULT_MAX_BYTES = 16 * 1024 * 1024
DEFAULT_MAX_DEPTH = 64
_SMALL_TEXT = 64 * 1024  # see JsonDocument.offset_to_line_col
_FEW_LINES = 64  # see JsonDocument.line_text

INVALID_JSON = rule(
    "VKS100",
    summary="The file is not valid JSON.",
    why="Nothing else can be checked until the text parses; the converter would refuse it.",
    bad='{"entry_point": "main",}',
    good='{"entry_point": "main"}',
)
NOT_UTF8 = rule(
    "VKS101",
    summary="The file is not UTF-8 text.",
    why="JSON exchanged between tools must be UTF-8 (RFC 8259); other encodings are read "
        "differently by different consumers.",
    bad="(bytes 0xff 0xfe at the start of the file)",
    good="(the same text saved as UTF-8)",
)
DUPLICATE_KEY = rule(
    "VKS103",
    summary="The same key appears twice in one object.",
    why="JSON permits it but leaves the meaning open: some readers keep the first value, "
        "others the last, so the shader may be bound differently than the file suggests.",
    bad='{"input_0_binding": 0, "input_0_binding": 1}',
    good='{"input_0_binding": 0}',
)
TOO_DEEP = rule(
    "VKS104",
    summary="The JSON nests deeper than the configured limit (64 by default).",
    why="Attribute objects are at most three levels deep; deeper nesting is a mistake or "
        "an attack on the parser.",
    bad='{"x": [[[[[[[[ ... ]]]]]]]]}',
    good='{"entry_point": "main", "workgroup_sizes": [1, 1, 1]}',
)
TOO_LARGE = rule(
    "VKS105",
    summary="The file is larger than the configured limit (16 MiB by default).",
    why="Attribute files hold one shader; a file this size is not one and would stall the "
        "check.",
    bad="(a 200 MiB JSON file)",
    good="(one attribute object with its shader)",
)
NON_STANDARD_NUMBER = rule(
    "VKS106",
    summary="NaN, Infinity or -Infinity appear in the JSON.",
    why="They are not JSON (RFC 8259) and most parsers outside Python reject them.",
    bad='{"workgroup_sizes": [NaN, 1, 1]}',
    good='{"workgroup_sizes": [8, 1, 1]}',
)
LONE_SURROGATE = rule(
    "VKS120",
    summary="A string or key holds a `\\uD800`-`\\uDFFF` escape that is not half of a "
            "surrogate pair.",
    why="A lone surrogate is not a Unicode character: the reference converter's JSON parser "
        "(nlohmann) rejects the whole attribute object, whichever key it is in, unknown "
        "keys included, and the op is not converted.",
    bad='{"note": "\\ud800"}',
    good='{"note": "\\ud83d\\ude00"}',
)
NUMBER_OUT_OF_RANGE = rule(
    "VKS121",
    summary="A number is beyond the range of a double (about 1.8e308).",
    why="The reference converter's JSON parser rejects the whole attribute object on a "
        "number it cannot hold as a double, whichever key it is in, unknown keys included; "
        "Python would read it as infinity or as a huge integer and carry on.",
    bad='{"note": 1e400}',
    good='{"note": 1e300}',
)


@cache
def _surrogate() -> re.Pattern[str]:
    """A lone surrogate in decoded text (compiled when first needed)."""
    return re.compile("[\ud800-\udfff]")


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class NonStandardConstant(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in JSON text: Python's reader takes them,
    JSON (and the reference converter's parser) does not."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} is not a JSON number")
        self.name = name


def reject_constant(name: str) -> Any:
    """``parse_constant`` for a JSON decoder that reads only JSON."""
    raise NonStandardConstant(name)


@dataclass(slots=True)
class Span:
    key_start: int | None
    key_end: int | None
    value_start: int
    value_end: int


@dataclass(slots=True)
class JsonDocument:
    """Parsed JSON (``value``) with lazy pointer -> position lookup into ``text``."""

    text: str
    path: str | None
    value: Any = None
    # False when no object of the text repeats a key (known from parsing): the member of
    # a container looked for is then the only one of its name, and the scan of the
    # container stops there, to go on from there for the next member looked for.
    has_duplicates: bool = True
    # Spans found so far, by pointer; containers whose members have all been scanned, and
    # those scanned part of the way (where the scan goes on).
    # (kept as (key start, key end, value start, value end): a tuple costs a scan of many
    # members far less than a Span each; span() makes the one asked for. The end of a
    # container is None until it is needed: see _members)
    _spans: dict[str, tuple[int | None, int | None, int, int | None]] = \
        field(default_factory=dict, repr=False)
    _scanned: set[str] = field(default_factory=set, repr=False)
    _scanning: dict[str, Iterator[tuple[str | int, int | None, int | None, int, int | None]]] \
        = field(default_factory=dict, repr=False)
    _line_starts: list[int] | None = field(default=None, repr=False)
    _last_line: tuple[int, str] | None = field(default=None, repr=False)  # see line_text

    # Pickled as its text and value (a web request's document goes to a worker process
    # with it): the positions found so far are a cache, found again when asked for (and a
    # scan in progress cannot be pickled).
    def __getstate__(self) -> tuple[str, str | None, Any, bool]:
        return self.text, self.path, self.value, self.has_duplicates

    def __setstate__(self, state: tuple[str, str | None, Any, bool]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    # -- positions ---------------------------------------------------------------
    def offset_to_line_col(self, offset: int) -> tuple[int, int]:
        if self._line_starts is None and len(self.text) <= _SMALL_TEXT:
            # Counting in C beats building a line index for the few lookups a small text
            # gets.
            line_start = self.text.rfind("\n", 0, offset) + 1
            return self.text.count("\n", 0, line_start) + 1, offset - line_start + 1
        line_starts = self._line_index()
        line = bisect.bisect_right(line_starts, offset) - 1
        return line + 1, offset - line_starts[line] + 1

    def _line_index(self) -> list[int]:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer(r"\n", self.text)]
        return self._line_starts

    def span(self, pointer: str) -> Span | None:
        """Where the value at ``pointer`` (and its key) is in ``text``; None when there is
        no such value. Only the containers on the way are scanned, each once, and their
        members' values are skipped by the C decoder: locating a diagnostic costs a pass
        over one object's keys, not a walk of the whole document."""
        found = self._span(pointer)
        if found is None:
            return None
        key_start, key_end, value_start, value_end = found
        if value_end is None:  # a container whose end nobody needed so far (see _members)
            value_end = _scan_value(self.text, value_start)[1]
            self._spans[pointer] = (key_start, key_end, value_start, value_end)
        return Span(key_start, key_end, value_start, value_end)

    def _span(self, pointer: str) -> tuple[int | None, int | None, int, int | None] | None:
        found = self._spans.get(pointer)
        if found is None:
            if pointer == "":
                start = _white(self.text, 0).end()
                # Valid JSON: nothing but white space follows the value.
                end = len(self.text.rstrip(" \t\n\r"))
                found = self._spans[""] = (None, None, start, end)
            else:
                parent = pointer.rsplit("/", 1)[0]
                if parent in self._scanned or self._span(parent) is None:
                    return None  # (a scanned container has no such member)
                self._scan_members(parent, until=None if self.has_duplicates else pointer)
                found = self._spans.get(pointer)
        return found

    def find_duplicates(self) -> list[tuple[str, str]]:
        """Every key that appears twice in one object, as (object pointer, key); objects
        under a duplicated key are searched too, though no pointer reaches them."""
        duplicates: list[tuple[str, str]] = []
        start = _white(self.text, 0).end()
        pending = [(start, "")]
        while pending:
            pos, pointer = pending.pop()
            seen: set[str] = set()
            for key, _key_start, _key_end, value_start, _end in _members(self.text, pos):
                member = _member_pointer(pointer, key)
                if isinstance(key, str):  # (an array's members have indices)
                    if key in seen:
                        duplicates.append((pointer, key))
                    seen.add(key)
                if self.text[value_start] in "{[":
                    pending.append((value_start, member))
        return duplicates

    def _scan_members(self, pointer: str, until: str | None = None) -> None:
        """Record the spans of the members of the container at ``pointer`` (already
        spanned), up to the member ``until`` or to the end; of a key given twice, the last
        (the value every reader here keeps)."""
        spans = self._spans
        members = self._scanning.get(pointer)
        if members is None:
            members = self._scanning[pointer] = _members(self.text, spans[pointer][2])
        for key, key_start, key_end, value_start, value_end in members:
            member = _member_pointer(pointer, key)
            spans[member] = (key_start, key_end, value_start, value_end)
            if member == until:
                return
        del self._scanning[pointer]
        self._scanned.add(pointer)

    def locate(
        self,
        pointer: str,
        *,
        on_key: bool = False,
        inner: InnerPosition | None = None,
    ) -> Location | None:
        offsets = self.locate_offsets(pointer, on_key=on_key, inner=inner)
        if offsets is None:
            return None
        start, end = offsets
        line, col = self.offset_to_line_col(start)
        if inner is not None and start == end:
            return Location(self.path, line, col)
        end_line, end_col = self.offset_to_line_col(max(start, end))
        return Location(self.path, line, col, end_line, end_col)

    def locate_offsets(
        self,
        pointer: str,
        *,
        on_key: bool = False,
        inner: InnerPosition | None = None,
    ) -> tuple[int, int] | None:
        """Offsets ``(start, end)`` in ``text`` of what a diagnostic points at.

        A pointer that does not exist falls back to the nearest enclosing value (a missing
        key is reported on the object that should contain it). With ``inner``, start and
        end are the one position inside the string value."""
        span = self.span(pointer)
        probe = pointer
        while span is None and probe:
            probe = probe.rsplit("/", 1)[0]
            span = self.span(probe)
            on_key = False
        if span is None:
            return None
        if inner is not None and self.text[span.value_start] == '"':
            start = _inner_offset(self.text, span.value_start, inner)
            return start, start
        if on_key and span.key_start is not None and span.key_end is not None:
            return span.key_start, span.key_end
        return span.value_start, span.value_end

    def line_text(self, line: int) -> str:
        # The line asked for last is kept: reporters ask for the same (possibly megabytes
        # long, minified) line once per diagnostic on it.
        if self._last_line is not None and self._last_line[0] == line:
            return self._last_line[1]
        if line < 1:
            return ""
        if self._line_starts is None and line <= _FEW_LINES:
            # Near the top, finding the line beats indexing every line of the text (a
            # request or a small file asks for one or two lines).
            start = 0
            for _ in range(line - 1):
                start = self.text.find("\n", start) + 1
                if start == 0:
                    return ""
        else:
            line_starts = self._line_index()
            if line > len(line_starts):
                return ""
            start = line_starts[line - 1]
        end = self.text.find("\n", start)
        text = self.text[start : end if end >= 0 else len(self.text)].rstrip("\r")
        self._last_line = (line, text)
        return text


class _Reading(threading.local):
    """The JSON decoder, and what its hooks saw in the text it read last: a long number
    (maybe beyond a double) and an object that repeats a key. Made once per thread (a
    decoder made per call, with hooks made per call, cost more than reading a small
    attribute object)."""

    def __init__(self) -> None:
        self.duplicate = False
        self.long_number = False
        self.decoder = json.JSONDecoder(object_pairs_hook=self._object, parse_int=self._int,
                                        parse_float=self._float,
                                        parse_constant=reject_constant)

    def _int(self, digits: str) -> int:
        if len(digits) > 19:  # (with its sign) might be beyond a double
            self.long_number = True
        return int(digits)

    def _float(self, digits: str) -> float:
        number = float(digits)
        if math.isinf(number):
            self.long_number = True
        return number

    def _object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) != len(pairs):
            self.duplicate = True
        return result


_READING = _Reading()


def nests_deeper(value: Any, limit: int) -> bool:
    """Whether a JSON value nests containers deeper than ``limit`` levels."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(node, dict):
            stack.extend((child, depth + 1) for child in node.values())
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node)
    return False


def parse_json(
    data: bytes | str,
    path: str | None = None,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_depth: int = DEFAULT_MAX_DEPTH,
) -> tuple[JsonDocument | None, list[Diagnostic]]:
    """Parse JSON text. Returns the document (None when unusable) and text-level problems."""
    size = len(data)
    if size > max_bytes:
        diag = TOO_LARGE.at("", f"file is {size} bytes; the limit is {max_bytes} bytes",
                            hint="raise `max-file-size` in [tool.tosa-vkshader] if this is "
                                 "intended")
        return None, [diag.located(Location(path, 1, 1))]
    if isinstance(data, bytes):
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            diag = NOT_UTF8.at(
                "", f"byte 0x{data[exc.start]:02x} at offset {exc.start} is not valid UTF-8",
                hint="save the file as UTF-8")
            return None, [diag.located(Location(path, line, column))]
    else:
        # A leading BOM in text (an attribute string inside a model) is skipped, as the
        # reference parser skips it; a space of the same length keeps every offset.
        text = " " + data[1:] if data.startswith("\ufeff") else data
    doc = JsonDocument(text=text, path=path)
    reading = _READING
    reading.duplicate = reading.long_number = False
    try:
        doc.value = reading.decoder.decode(text)
    except json.JSONDecodeError as exc:
        message = exc.msg
        if text.strip() == "":
            message = "the file is empty"
        diag = INVALID_JSON.at("", f"invalid JSON: {message}",
                               hint=_syntax_hint(text, exc.pos))
        return None, [diag.located(Location(path, exc.lineno, exc.colno))]
    except NonStandardConstant as exc:
        offset = _find_constant(text, exc.name)
        line, col = doc.offset_to_line_col(offset)
        diag = NON_STANDARD_NUMBER.at("", f"`{exc.name}` is not a JSON number",
                                      hint="write a finite number")
        return None, [diag.located(Location(path, line, col))]
    except RecursionError:
        diag = TOO_DEEP.at("", f"JSON nests deeper than {max_depth} levels")
        return None, [diag.located(Location(path, 1, 1))]
    except ValueError as exc:  # e.g. integers beyond int-max-str-digits
        diag = INVALID_JSON.at("", f"invalid JSON: {exc}")
        return None, [diag.located(Location(path, 1, 1))]
    # Nesting needs brackets: only walk the value when there are enough of them.
    brackets = text.count("[") + text.count("{")
    if brackets > max_depth and nests_deeper(doc.value, max_depth):
        diag = TOO_DEEP.at("", f"JSON nests deeper than {max_depth} levels")
        return None, [diag.located(Location(path, 1, 1))]
    saw_duplicate, saw_long_number = reading.duplicate, reading.long_number
    doc.has_duplicates = saw_duplicate
    problems: list[Diagnostic] = []
    # Only walk the values when one might be beyond the reference parser: a long number,
    # a surrogate escape, or a raw surrogate (possible in text that was not UTF-8 bytes).
    # (Looking for a backslash first: one character is found by memchr, and most texts
    # have none; "\\u" is a substring search over the whole text.)
    if saw_long_number or ("\\" in text and _SURROGATE_ESCAPE.search(text)) or (
            not isinstance(data, bytes) and not text.isascii()
            and _surrogate().search(text)):
        problems.extend(_beyond_reference_parser(doc.value))
    if saw_duplicate:
        for obj_pointer, key in doc.find_duplicates():
            ptr = pointer_join(obj_pointer, key)
            problems.append(
                DUPLICATE_KEY.at(ptr, f"key `{key}` appears more than once; the last value "
                                      "wins here and in the reference converter, but other "
                                      "readers may keep the first (stricter than the "
                                      "converter: the spec asks for deterministic keys)",
                                 hint=f"keep a single `{key}`", on_key=True)
            )
    return doc, problems


def _beyond_reference_parser(value: Any) -> list[Diagnostic]:
    """Values Python reads but the reference converter's parser (nlohmann) refuses: lone
    surrogates in any string or key, numbers beyond a double's range, anywhere."""
    found: list[Diagnostic] = []
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, pointer = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                child_pointer = pointer_join(pointer, key)
                if _surrogate().search(key):
                    found.append(_lone_surrogate(child_pointer, "key", key, on_key=True))
                stack.append((child, child_pointer))
        elif isinstance(node, list):
            stack.extend((child, pointer_join(pointer, k)) for k, child in enumerate(node))
        elif isinstance(node, str):
            if _surrogate().search(node):
                found.append(_lone_surrogate(pointer, "value", node))
        elif isinstance(node, float) and math.isinf(node) or (
                type(node) is int and _overflows_double(node)):
            shown = ("a number" if isinstance(node, float)
                     else f"a {len(str(abs(node)))}-digit integer")
            found.append(NUMBER_OUT_OF_RANGE.at(
                pointer, f"{shown} at `{pointer or '/'}` is beyond the range of a double; "
                         "the reference converter's JSON parser rejects the attributes",
                hint="write a number within ±1.8e308"))
    found.reverse()
    return found


def _overflows_double(number: int) -> bool:
    if -2**63 <= number < 2**64:
        return False
    try:
        float(number)
    except OverflowError:
        return True
    return False


def _lone_surrogate(pointer: str, what: str, text: str, *, on_key: bool = False) -> Diagnostic:
    found = _surrogate().search(text)
    assert found is not None  # (called for a text that holds one)
    char = found.group()
    return LONE_SURROGATE.at(
        pointer, f"the {what} at `{pointer}` holds a lone surrogate escape "
                 f"`\\u{ord(char):04x}`; the reference converter's JSON parser rejects the "
                 "attributes", hint="escape the character as a surrogate pair, or remove it",
        on_key=on_key)


def _find_constant(text: str, name: str) -> int:
    match = re.search(r"(?<![\w\"])-?" + re.escape(name.lstrip("-")), text)
    return match.start() if match else 0


def _syntax_hint(text: str, pos: int) -> str | None:
    before = text[:pos].rstrip()
    if before.endswith(","):
        return "remove the trailing comma"
    if text[pos : pos + 1] == "'":
        return "JSON strings use double quotes"
    if text[pos : pos + 2] in ("//", "/*"):
        return "JSON has no comments"
    return None


# -- the position scanner ---------------------------------------------------------------

_WS = re.compile(r"[ \t\n\r]*")
# `_WS` matches at every position (the empty string at worst): its match is never None.
_white: Callable[[str, int], re.Match[str]] = _WS.match  # type: ignore[assignment]
# The C decoder's pieces: a string from just after its opening quote, and any value (with
# NaN and Infinity, which Python's json.dumps writes into rendered documents). Both are in
# CPython's json since 2.6; typeshed does not list them.
_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]
_scan_value = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[attr-defined]


def _member_pointer(container: str, key: str | int) -> str:
    if isinstance(key, int) or ("~" not in key and "/" not in key):
        return f"{container}/{key}"
    return pointer_join(container, key)


def _members(text: str, pos: int
             ) -> Iterator[tuple[str | int, int | None, int | None, int, int | None]]:
    """(key or index, key start, key end, value start, value end) of each member of the
    object or array whose opening bracket is at ``pos``; nothing for other values. Each
    member's value is skipped by the C decoder, not walked.

    A member that is itself an object or array is yielded before its end is known (None):
    skipping it is a parse of all of it (an op's attribute object with its shader), and a
    scan that stops at it, to look inside, never needs its end (span() finds it when
    asked)."""
    opening = text[pos]
    if opening not in "{[":
        return
    white, scan_key, scan_value = _white, _scanstring, _scan_value
    is_object = opening == "{"
    closing = "}" if is_object else "]"
    key: str | int
    key_start: int | None
    key_end: int | None
    index = 0
    pos = white(text, pos + 1).end()
    while text[pos] != closing:
        if is_object:
            key_start = pos
            key, key_end = scan_key(text, pos + 1)
            value_start = white(text, white(text, key_end).end() + 1).end()  # past the ':'
        else:
            key, key_start, key_end, value_start = index, None, None, pos
            index += 1
        if text[value_start] in "{[":
            yield key, key_start, key_end, value_start, None
            end = scan_value(text, value_start)[1]
        else:
            end = scan_value(text, value_start)[1]
            yield key, key_start, key_end, value_start, end
        pos = white(text, end).end()
        if text[pos] == ",":
            pos = white(text, pos + 1).end()


# One decoded character: a surrogate pair, a \\u escape, another escape, or a plain char.
_ESCAPE = re.compile(
    r'\\u[dD][89abAB][0-9a-fA-F]{2}\\u[0-9a-fA-F]{4}|\\u[0-9a-fA-F]{4}|\\.|[^\\"]')


def _inner_offset(text: str, string_start: int, inner: InnerPosition) -> int:
    """Offset in ``text`` of line/column ``inner`` of the decoded string starting at
    ``string_start`` (the opening quote). Escapes such as ``\\n`` count as one character."""
    line, column = 1, 1
    pos = string_start + 1
    while pos < len(text) and text[pos] != '"':
        if line == inner.line and column == inner.column:
            return pos
        token = _ESCAPE.match(text, pos)
        if token is None:
            break
        if token.group() == "\\n":
            if line == inner.line:  # column past the end of that line
                return pos
            line, column = line + 1, 1
        else:
            column += 1
        pos = token.end()
    return pos


def pretty_json(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False, default=repr)``, five times faster
    for what attribute objects hold (json's indenting encoder is pure Python): objects with
    string keys, arrays, strings, integers, finite floats, booleans and null. Anything
    else is left to json itself."""
    try:
        return _pretty(value, "\n")
    except (_Unusual, RecursionError):
        return json.dumps(value, indent=2, ensure_ascii=False, default=repr)


def pretty_document(value: Any, path: str | None) -> JsonDocument:
    """``pretty_json(value)`` as a document whose top-level members are already placed:
    the renderer knows where it put each one, so locating a finding on a key of an
    attribute object scans nothing."""
    try:
        return _placed_document(value, path)
    except (_Unusual, RecursionError):
        return JsonDocument(pretty_json(value), path, value, has_duplicates=False)


def rendered_document(value: Any, path: str | None, *, max_bytes: int = DEFAULT_MAX_BYTES,
                      max_depth: int = DEFAULT_MAX_DEPTH) -> JsonDocument | None:
    """What ``parse_json(pretty_json(value), path)`` gives, without the parse, when that
    parse would give back ``value`` itself and no problem; else None (parse the text).

    A value parsed from JSON and sent back to be checked as JSON text (the web's
    ``{"op": ...}``) was rendered and parsed again, only for the parse to find what the
    first one had found. It gives back the same value unless the value holds what JSON
    text cannot (NaN, infinity, keys that are not strings) or what the parse marks (an
    integer of more than 19 characters, a lone surrogate; VKS120/VKS121), or the text is
    beyond the limits (VKS104, VKS105): those are left to the parse."""
    try:
        document = _placed_document(value, path)
    except (_Unusual, RecursionError):
        return None
    text = document.text
    if len(text) > max_bytes or text.count("[") + text.count("{") > max_depth \
            or not (text.isascii() or _surrogate().search(text) is None):
        return None  # (as parse_json counts brackets before it measures the nesting)
    return document


def member_text(document: JsonDocument, key: str) -> str:
    """The text of the member ``key`` of the object ``document`` holds, as it stands in
    the document (what a file holding only that member's value would hold). Of a
    member that is the object's last (an ``{"op": ...}`` request), where the object ends
    says where it ends: nothing of its text is scanned again."""
    found = document._span(_member_pointer("", key))
    assert found is not None  # (a member of the value)
    start, end = found[2], found[3]
    text = document.text
    if end is None and next(reversed(document.value)) == key:
        end = len(text.rstrip(" \t\n\r")) - 1  # the object's closing brace
        while text[end - 1] in " \t\n\r":
            end -= 1
    elif end is None:
        end = _scan_value(text, start)[1]
    return text[start:end]


def member_document(document: JsonDocument, key: str) -> JsonDocument:
    """The member ``key`` of the object of ``document`` as a document of its own: what
    ``parse_json(member_text(document, key))`` gives, without the parse, for a
    ``document`` that parse_json read without a problem (no part of such a text has
    one)."""
    return JsonDocument(member_text(document, key), document.path, document.value[key],
                        has_duplicates=False)


def _placed_document(value: Any, path: str | None) -> JsonDocument:
    """:func:`pretty_document`, or _Unusual where pretty_json leaves the value to json."""
    if type(value) is not dict or not value:
        return JsonDocument(_pretty(value, "\n"), path, value, has_duplicates=False)
    members = []
    for key, member in value.items():
        if type(key) is not str:
            raise _Unusual
        members.append((key, _quoted(key), _pretty(member, "\n  ")))
    text = "{\n  " + ",\n  ".join([f"{quoted}: {shown}" for _, quoted, shown in members]) \
        + "\n}"
    document = JsonDocument(text, path, value, has_duplicates=False)
    spans = document._spans
    spans[""] = (None, None, 0, len(text))
    start = 4  # after "{\n  "; members are separated by ",\n  "
    for key, quoted, shown in members:
        value_start = start + len(quoted) + 2  # after ": "
        value_end = value_start + len(shown)
        spans[_member_pointer("", key)] = (start, start + len(quoted), value_start, value_end)
        start = value_end + 4
    document._scanned.add("")
    return document


class _Unusual(Exception):
    pass


_quoted = json.encoder.encode_basestring  # the C function json itself uses
# The printable ASCII characters that JSON writes as they are (all but '"' and '\\').
_AS_THEY_ARE = bytes(c for c in range(0x20, 0x7F) if c not in b'"\\')
_LONG = 256
_LITERALS = {True: "true", False: "false"}


def _quoted_long(text: str) -> str:
    """``_quoted(text)`` for a string longer than _LONG. One that needs no escape
    (embedded SPIR-V's base64, most of an op's text) is only put in quotes: json's
    encoder builds it character by character, and finding that none needs an escape
    costs a quarter of that."""
    if text.isascii() and not text.encode("ascii").translate(None, _AS_THEY_ARE):
        return '"' + text + '"'
    return _quoted(text)


def _pretty(value: Any, newline: str) -> str:
    """The rendering of pretty_json; _Unusual for what it leaves to json: what is not a
    JSON value of its own (NaN, infinity, keys that are not strings, other types), and
    integers of more than 19 characters (json writes them alike; rendered_document must
    not take them, since the parser marks them)."""
    kind = type(value)
    if kind is str:
        return _quoted(value) if len(value) <= _LONG else _quoted_long(value)
    if kind is int:
        text = int.__repr__(value)
        if len(text) > 19:  # see _Reading._int
            raise _Unusual
        return text
    if kind is bool:
        return _LITERALS[value]
    if value is None:
        return "null"
    if kind is float and math.isfinite(value):
        return float.__repr__(value)
    inner = newline + "  "
    if kind is dict:
        if not value:
            return "{}"
        members = []
        for key, member in value.items():
            if type(key) is not str:
                raise _Unusual
            members.append(f"{_quoted(key)}: {_pretty(member, inner)}")
        return "{" + inner + ("," + inner).join(members) + newline + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        return "[" + inner + ("," + inner).join([_pretty(item, inner) for item in value]) \
            + newline + "]"
    raise _Unusual


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type (``integer``, ``array``, ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
