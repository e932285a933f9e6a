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


class _Line:
    """A line being built: its characters and the (line, column) each came from."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.where: list[tuple[int, int]] = []

    def put(self, char: str, line: int, column: int) -> None:
        self.chars.append(char)
        self.where.append((line, column))


def _blank_comments(lines: list[tuple[str, int]]) -> list[_Line]:
    """Replace comments by spaces. A block comment counts as one space even when it spans
    lines (as in C, and as glslang reads `#/*\n*/include`), so the lines it spans become
    one. Quoted strings are kept so that ``#include "a//b"`` keeps its argument."""
    out: list[_Line] = []
    in_block = False
    current = _Line()
    for text, line_no in lines:
        if not in_block:
            current = _Line()
        i, n = 0, len(text)
        in_string = False
        while i < n:
            c = text[i]
            if in_block:
                if text.startswith("*/", i):
                    in_block = False
                    current.put(" ", line_no, i + 1)
                    i += 1
                current.put(" ", line_no, i + 1)
            elif in_string:
                in_string = c != '"'
                current.put(c, line_no, i + 1)
            elif c == '"':
                in_string = True
                current.put(c, line_no, i + 1)
            elif text.startswith("//", i):
                break
            elif text.startswith("/*", i):
                in_block = True
                current.put(" ", line_no, i + 1)
                i += 1
                current.put(" ", line_no, i + 1)
            else:
                current.put(c, line_no, i + 1)
            i += 1
        if in_block:
            current.put(" ", line_no, n + 1)  # the line break inside the comment
        else:
            out.append(current)
    if in_block:
        out.append(current)
    return out


def directives(source: str) -> list[Directive]:
    """Every directive-looking line of ``source``, in order."""
    found: list[Directive] = []
    for built in _blank_comments(_logical_lines(source)):
        text = "".join(built.chars)
        match = _DIRECTIVE.match(text)
        if match is None:
            continue
        line, column = built.where[text.index("#")]
        found.append(Directive(match.group(1) or "", match.group(2).strip(), line, column))
    return found


_GLSL_LOCAL_SIZE = re.compile(r"\blocal_size_[xyz](?:_id)?\s*=")
_HLSL_NUMTHREADS = re.compile(r"\[\s*numthreads\s*\(", re.IGNORECASE)


def declares_local_size(source: str, language: str) -> bool:
    """Whether the source states its workgroup size (GLSL `local_size_*`, HLSL
    `[numthreads]`) outside comments. Without one, GLSL compiles to a local size of 1x1x1
    that nobody chose, which a cross-check may want to report differently."""
    text = "\n".join("".join(line.chars) for line in _blank_comments(_logical_lines(source)))
    pattern = _HLSL_NUMTHREADS if language == "HLSL" else _GLSL_LOCAL_SIZE
    return pattern.search(text) is not None


def has_version(found: list[Directive]) -> bool:
    return any(d.name == "version" for d in found)


def extension_directives(found: list[Directive], name: str) -> list[Directive]:
    return [d for d in found if d.name == "extension" and d.argument.split(":")[0].strip() == name]
