"""Macros that expand beyond any real shader, found before the compiler runs.

``#define A1 A0 A0`` forty times over is a kilobyte of source whose expansion has 2^40
tokens: the compiler would run until its time limit stops it. This estimate answers at
once instead. It is a lower bound, never more than what the preprocessor produces:

- only object-like and function-like macros defined exactly once and never ``#undef``-ed
  count (a redefinition could make the last definition the smaller one);
- a function-like macro counts only where its name is followed by ``(``, each parameter
  as the count of its argument (``#``, ``##`` and rescanning are not followed);
- a macro named inside its own expansion counts as one token, as the preprocessor leaves
  it;
- a source with conditional directives (``#if``, ``#ifdef``, ...) is not estimated: the
  large macro could sit in a block the preprocessor skips.

Real shaders expand to thousands of tokens; the limit is a hundred million.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..diagnostics import Diagnostic, InnerPosition
from ..rule_registry import rule
from .scan import Directive, cleaned

MAX_EXPANDED_TOKENS = 100_000_000

MACRO_EXPANSION = rule(
    "VKS309",
    summary="The shader's macros expand to more tokens than any compiler can get through.",
    why="A few lines of `#define A1 A0 A0` make an expansion that doubles with every line: "
        "forty of them are a kilobyte of source and 2^40 tokens, and the compiler would run "
        "until its time limit. The expansion is counted before compiling, so the answer "
        "comes at once. The count is a lower bound (macros defined once, outside "
        "conditional blocks); a shader that really needs more is not a shader any runtime "
        "compiles.",
    bad="#define A0 x += 1.0;\n#define A1 A0 A0\n...\n#define A40 A39 A39\n"
        "void main() { A40 }",
    good="for (int i = 0; i < 1024; ++i) { x += 1.0; }",
)

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d[\w.]*|\S")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DEFINE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\(([^)]*)\))?(.*)", re.DOTALL)
_CONDITIONALS = frozenset({"if", "ifdef", "ifndef", "elif", "else"})


@dataclass(frozen=True, slots=True)
class _Macro:
    parameters: tuple[str, ...] | None  # None: object-like
    body: tuple[str, ...]


def _macros(found: list[Directive]) -> dict[str, _Macro] | None:
    """The macros defined exactly once and never undefined; None when the source has
    conditional directives (then nothing is estimated)."""
    if any(d.name in _CONDITIONALS for d in found):
        return None
    seen: dict[str, int] = {}
    defined: dict[str, _Macro] = {}
    for directive in found:
        if directive.name not in ("define", "undef"):
            continue
        match = _DEFINE.match(directive.argument)
        if match is None:
            continue
        name = match.group(1)
        seen[name] = seen.get(name, 0) + (2 if directive.name == "undef" else 1)
        parameters = None if match.group(2) is None else tuple(
            p.strip() for p in match.group(3).split(",") if p.strip())
        defined[name] = _Macro(parameters, tuple(_TOKEN.findall(match.group(4))))
    return {name: macro for name, macro in defined.items() if seen[name] == 1}


class _Counter:
    """Counts the tokens token lists expand to (each count capped just above the limit).
    A function-like macro's parameters count as the size of their arguments, which are
    counted first, as the preprocessor expands them before substituting. Arguments are
    ranges of the token list (found with one pass over its parentheses), so a count costs
    time linear in the tokens however deep the calls nest."""

    MAX_DEPTH = 64  # nested calls followed; deeper ones count as one token each

    def __init__(self, macros: dict[str, _Macro]) -> None:
        self.macros = macros
        self.memo: dict[tuple[str, tuple[int, ...]], int] = {}
        self.bodies = {name: _Tokens(macro.body) for name, macro in macros.items()}

    def count(self, tokens: _Tokens, start: int, end: int, env: dict[str, int],
              active: frozenset[str] = frozenset(), depth: int = 0) -> int:
        total = 0
        k = start
        items = tokens.items
        while k < end:
            token = items[k]
            k += 1
            macro = self.macros.get(token)
            if token in env:
                total += env[token]
            elif macro is None or token in active or depth > self.MAX_DEPTH:
                total += 1
            elif macro.parameters is None:
                total += self._expanded(token, macro, (), active, depth)
            elif k < end and items[k] == "(" and tokens.closing(k) < end:
                close = tokens.closing(k)
                sizes = tuple(self.count(tokens, a, b, env, active, depth + 1)
                              for a, b in tokens.arguments(k, close))
                total += self._expanded(token, macro, sizes, active, depth)
                k = close + 1
            else:
                total += 1  # a function-like macro's name without a call stays as it is
            if total > MAX_EXPANDED_TOKENS:
                return MAX_EXPANDED_TOKENS + 1
        return total

    def _expanded(self, name: str, macro: _Macro, sizes: tuple[int, ...],
                  active: frozenset[str], depth: int) -> int:
        key = (name, sizes)
        if key not in self.memo:
            env = dict(zip(macro.parameters or (), sizes, strict=False))
            body = self.bodies[name]
            self.memo[key] = self.count(body, 0, len(body.items), env, active | {name},
                                        depth + 1)
        return self.memo[key]


class _Tokens:
    """A token list with its matching parentheses (an unclosed "(" closes at the end)."""

    def __init__(self, items: list[str] | tuple[str, ...]) -> None:
        self.items = items
        self.close: dict[int, int] = {}
        self.commas: dict[int, list[int]] = {}  # "(" -> its top-level commas
        stack: list[int] = []
        for k, token in enumerate(items):
            if token == "(":
                stack.append(k)
                self.commas[k] = []
            elif token == ")" and stack:
                self.close[stack.pop()] = k
            elif token == "," and stack:
                self.commas[stack[-1]].append(k)
        for k in stack:
            self.close[k] = len(items)

    def closing(self, k: int) -> int:
        return self.close[k]

    def arguments(self, k: int, close: int) -> list[tuple[int, int]]:
        bounds = [k, *(c for c in self.commas[k] if c < close), close]
        return [(bounds[i] + 1, bounds[i + 1]) for i in range(len(bounds) - 1)]


def expansion_problem(source: str, found: list[Directive], pointer: str) -> Diagnostic | None:
    """VKS309 when the source's macros expand beyond :data:`MAX_EXPANDED_TOKENS`,
    placed at the line that uses the largest one."""
    if "#" not in source:
        return None
    macros = _macros(found)
    if not macros:
        return None
    counter = _Counter(macros)
    clean = cleaned(source)
    text = clean.text
    worst: tuple[int, int] | None = None  # size, offset of the line's first macro
    total = 0
    for line_start, line in _lines(text):
        if line.lstrip(" \t\f\v\x1f").startswith("#"):
            continue
        tokens = _TOKEN.findall(line)
        if not any(t in macros for t in tokens):
            continue
        size = counter.count(_Tokens(tokens), 0, len(tokens), {})
        total = min(total + size, MAX_EXPANDED_TOKENS + 1)
        if worst is None or size > worst[0]:
            first = next(m for m in _IDENTIFIER.finditer(line) if m.group() in macros)
            worst = (size, line_start + first.start())
        if total > MAX_EXPANDED_TOKENS:
            break
    if total <= MAX_EXPANDED_TOKENS or worst is None:
        return None
    line, column = clean.position(worst[1])
    return MACRO_EXPANSION.at(
        pointer, f"the macros expand to more than {MAX_EXPANDED_TOKENS:,} tokens: no "
        "compiler gets through that, so the shader was not compiled",
        inner=InnerPosition(line, column),
        hint="write a loop instead of doubling macros")


def _lines(text: str):
    start = 0
    for line in re.split(r"\r\n|\r|\n", text):
        yield start, line
        start += len(line)
        start += 2 if text.startswith("\r\n", start) else 1
