"""A small, conservative scan of preprocessor directives in GLSL/HLSL source.

It is not a preprocessor: it finds every line that *could* be a directive (after line
splicing and with comments blanked out), which is what the include policy and the
``#version`` default need. It errs towards finding too much: a directive inside an
inactive ``#if 0`` block is still reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# glslang treats a lone CR as a line break for directives (measured: "x\r#include" is
# honoured), so every kind of line break ends a logical line here.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_DIRECTIVE = re.compile(r"[ \t\f\v]*#[ \t\f\v]*([A-Za-z_][A-Za-z_0-9]*)?(.*)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Directive:
    name: str  # "include", "version", "extension", ... ("" for a bare "#")
    argument: str  # the rest of the logical line, comments blanked out
    line: int  # 1-based line of the '#', counted in '\n' like the compiler and locator
    column: int  # 1-based column of the '#'


def _physical_lines(source: str) -> list[tuple[str, int]]:
    """Lines split on any line break, each with its 1-based line number in '\\n' counting."""
    lines: list[tuple[str, int]] = []
    line_no, start = 1, 0
    for match in _LINE_BREAK.finditer(source):
        lines.append((source[start : match.start()], line_no))
        if "\n" in match.group():
            line_no += 1
        start = match.end()
    lines.append((source[start:], line_no))
    return lines


def _logical_lines(source: str) -> list[tuple[str, int]]:
    """Physical lines joined where a line ends with a backslash (line splicing)."""
    logical: list[tuple[str, int]] = []
    pending: tuple[str, int] | None = None
    for text, line_no in _physical_lines(source):
        if pending is not None:
            text, line_no = pending[0] + text, pending[1]
            pending = None
        if text.endswith("\\"):
            pending = (text[:-1], line_no)
        else:
            logical.append((text, line_no))
    if pending is not None:
        logical.append(pending)
    return logical


def _blank_comments(lines: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Replace comments by spaces; block comments may span lines. Quoted strings are
    kept so that ``#include "a//b"`` keeps its argument."""
    out: list[tuple[str, int]] = []
    in_block = False
    for text, line_no in lines:
        chars = list(text)
        i, n = 0, len(chars)
        in_string = False
        while i < n:
            c = chars[i]
            if in_block:
                if c == "*" and i + 1 < n and chars[i + 1] == "/":
                    chars[i] = chars[i + 1] = " "
                    in_block = False
                    i += 2
                    continue
                chars[i] = " "
            elif in_string:
                if c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
            elif c == "/" and i + 1 < n and chars[i + 1] == "/":
                for j in range(i, n):
                    chars[j] = " "
                break
            elif c == "/" and i + 1 < n and chars[i + 1] == "*":
                chars[i] = chars[i + 1] = " "
                in_block = True
                i += 2
                continue
            i += 1
        out.append(("".join(chars), line_no))
    return out


def directives(source: str) -> list[Directive]:
    """Every directive-looking line of ``source``, in order."""
    found: list[Directive] = []
    for text, line_no in _blank_comments(_logical_lines(source)):
        match = _DIRECTIVE.match(text)
        if match is None:
            continue
        column = text.index("#") + 1
        found.append(Directive(match.group(1) or "", match.group(2).strip(), line_no, column))
    return found


def has_version(found: list[Directive]) -> bool:
    return any(d.name == "version" for d in found)


def extension_directives(found: list[Directive], name: str) -> list[Directive]:
    return [d for d in found if d.name == "extension" and d.argument.split(":")[0].strip() == name]
