"""Compiler macros written into the shader text that an op embeds.

The reference runtime compiles an op's GLSL ``shader_code`` itself, with no compiler
flags: a macro that ``new`` was given (``-D NAME=VALUE`` or ``macros`` of
``[tool.tosa-vkshader]``) exists for the runtime only as a ``#define`` line in the text.
The lines go right after ``#version`` (which must stay the first directive), or first
when there is none; :class:`DefinedSource` maps the lines of the embedded text back to
those of the user's file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..compile.options import Macro
from ..compile.scan import directives


@dataclass(frozen=True, slots=True)
class DefinedSource:
    """The text to embed: the user's ``source`` with ``count`` ``#define`` lines inserted
    after its line ``after`` (0: before the first line)."""

    text: str
    after: int
    count: int

    def user_line(self, line: int) -> int:
        """The line of the user's file that line ``line`` of :attr:`text` is; the
        ``#define`` lines themselves are placed on the line they follow (or line 1)."""
        if line <= self.after:
            return line
        if line <= self.after + self.count:
            return max(self.after, 1)
        return line - self.count


def define_lines(macros: Sequence[Macro]) -> list[str]:
    """``#define NAME VALUE`` (``#define NAME`` without a value, as ``glslc -DNAME``)."""
    return [f"#define {name} {value}" if value else f"#define {name}"
            for name, value in macros]


def with_defines(source: str, macros: Sequence[Macro]) -> DefinedSource:
    """``source`` with a ``#define`` line per macro after its ``#version`` line (the
    lines of a ``#version`` continued with ``\\`` count as one), else at the top."""
    lines = source.split("\n")
    version = next((d for d in directives(source) if d.name == "version"), None)
    after = 0
    if version is not None:
        after = version.line
        while after < len(lines) and lines[after - 1].rstrip("\r").endswith("\\"):
            after += 1
    added = define_lines(macros)
    ending = "\r" if after and lines[after - 1].endswith("\r") else ""
    text = "\n".join(lines[:after] + [line + ending for line in added] + lines[after:])
    return DefinedSource(text, after, len(added))
