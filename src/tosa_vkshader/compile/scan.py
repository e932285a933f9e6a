"""A small, conservative scan of preprocessor directives in GLSL/HLSL source.

It is not a preprocessor: it finds every line that *could* be a directive, which is
what the include policy and the ``#version`` default need, and it errs towards finding
too much (a directive inside an inactive ``#if 0`` block is still reported). It reads
the text the way glslang does (measured with glslc):

- a backslash at the end of a line splices it to the next one (``#inc\\<nl>lude``);
- every line break (CR, LF, CRLF) ends a line for directives, though only LF counts
  for line numbers (``// x<CR>#include`` is an include on the same numbered line);
- a comment is one space, even a block comment spanning lines (``#/*<nl>*/include``).

Regular expressions do the work, so a 100-shader run spends microseconds here.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

_SPLICE = re.compile(r"\\(?:\r\n|\r|\n)")
# Left to right, whichever starts first wins: a string hides comment markers, a comment
# hides quotes. An unterminated block comment runs to the end of the text.
_TOKEN = re.compile(r'//[^\r\n]*|/\*.*?(?:\*/|\Z)|"[^"\r\n]*"?', re.DOTALL)
_BREAK = re.compile(r"\r\n|\r|\n")
JOIN = "\x1f"  # stands for a line break inside a block comment: no break, just space
_DIRECTIVE = re.compile(r"[ \t\f\v\x1f]*#[ \t\f\v\x1f]*([A-Za-z_][A-Za-z_0-9]*)?(.*)",
                        re.DOTALL)
_GLSL_LOCAL_SIZE = re.compile(r"\blocal_size_[xyz](?:_id)?\s*=")
_HLSL_NUMTHREADS = re.compile(r"\[\s*numthreads\s*\(", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Directive:
    name: str  # "include", "version", "extension", ... ("" for a bare "#")
    argument: str  # the rest of the logical line, comments blanked out
    line: int  # 1-based line of the '#', counted in '\n' like the compiler and locator
    column: int  # 1-based column of the '#'


def _blank(token: re.Match[str]) -> str:
    text = token.group()
    if text.startswith('"'):
        return text
    if text.startswith("//"):
        return " " * len(text)
    return "".join(JOIN if c in "\r\n" else " " for c in text)


@dataclass(frozen=True, slots=True)
class _Clean:
    text: str  # splices removed, comments blanked (same length as the spliced text)
    offsets: tuple[int, ...] | None  # index in text -> index in source (None: identical)
    newlines: tuple[int, ...]  # offsets of '\n' in the source
    breaks: tuple[int, ...]  # offsets of every line-break character in the source

    def position(self, index: int) -> tuple[int, int]:
        """1-based (line, column) in the source of ``text[index]``."""
        offset = self.offsets[index] if self.offsets is not None else index
        line = bisect.bisect_left(self.newlines, offset) + 1
        k = bisect.bisect_left(self.breaks, offset)
        line_start = self.breaks[k - 1] + 1 if k else 0
        return line, offset - line_start + 1


@lru_cache(maxsize=512)
def cleaned(source: str) -> _Clean:
    """``source`` with line splices joined and comments blanked (a line break inside a
    block comment becomes :data:`JOIN`), and how to map its offsets back."""
    offsets: tuple[int, ...] | None = None
    text = source
    if "\\" in source and _SPLICE.search(source):
        pieces: list[str] = []
        kept: list[int] = []
        pos = 0
        for match in _SPLICE.finditer(source):
            pieces.append(source[pos:match.start()])
            kept.extend(range(pos, match.start()))
            pos = match.end()
        pieces.append(source[pos:])
        kept.extend(range(pos, len(source)))
        text, offsets = "".join(pieces), tuple(kept)
    text = _TOKEN.sub(_blank, text)
    newlines = tuple(i for i, c in enumerate(source) if c == "\n")
    breaks = tuple(i for i, c in enumerate(source) if c in "\r\n")
    return _Clean(text, offsets, newlines, breaks)


def directives(source: str) -> list[Directive]:
    """Every directive-looking line of ``source``, in order."""
    clean = cleaned(source)
    found: list[Directive] = []
    start = 0
    for segment in _BREAK.split(clean.text):
        match = _DIRECTIVE.match(segment)
        if match is not None:
            line, column = clean.position(start + segment.index("#"))
            argument = match.group(2).replace(JOIN, " ").strip()
            found.append(Directive(match.group(1) or "", argument, line, column))
        start += len(segment)
        # the break that ended the segment: CRLF is two characters
        start += 2 if clean.text.startswith("\r\n", start) else 1
    return found


def declares_local_size(source: str, language: str) -> bool:
    """Whether the source states its workgroup size (GLSL `local_size_*`, HLSL
    `[numthreads]`) outside comments. Without one, GLSL compiles to a local size of 1x1x1
    that nobody chose, which a cross-check may want to report differently."""
    pattern = _HLSL_NUMTHREADS if language == "HLSL" else _GLSL_LOCAL_SIZE
    return pattern.search(cleaned(source).text) is not None


def has_version(found: list[Directive]) -> bool:
    return any(d.name == "version" for d in found)


def extension_directives(found: list[Directive], name: str) -> list[Directive]:
    return [d for d in found if d.name == "extension" and d.argument.split(":")[0].strip() == name]
