"""Where a GLSL/HLSL source declares its resources, push constants and local size.

The cross-check compares attributes with the compiled module and points at the attribute
key; this scan finds the source line the module's binding or local size came from, so a
report can show it too. It is not a compiler: it reads the top-level statements of the
text (comments blanked, line splices joined, preprocessor lines skipped, as
``scan.py`` prepares them) and answers only when the answer is certain:

- a resource is found by the name the module gives it (the variable's name, else its
  block's), and only when exactly one top-level statement declares that name, the name is
  not a macro, and the statement's literal set/binding (when written as numbers or as a
  ``#define`` of a number) agree with the module's;
- the local size is the one ``layout(local_size_...) in;`` (GLSL) or the ``[numthreads]``
  of the entry point's function (HLSL), when there is exactly one.

Anything else (a declaration made by a macro, brought in by ``#include``, written twice
in ``#if`` branches) gives no place rather than a wrong one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .scan import JOIN, cleaned, directives

# Characters that open, close or end a statement; everything else is skipped at once.
_STRUCTURE = re.compile(r"[;{}()\[\]]")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LAYOUT = re.compile(r"\blayout\s*\(")
_LOCAL_SIZE_KEY = re.compile(r"^local_size_[xyz](?:_id)?$")
_GLSL_STORAGE = re.compile(r"\b(?:uniform|buffer)\b")
_HLSL_BLOCK = re.compile(r"^(?:cbuffer|tbuffer)\s+([A-Za-z_][A-Za-z0-9_]*)")
_HLSL_ATTRIBUTE = re.compile(r"^\[\[?")
_VK_BINDING = re.compile(r"vk::binding\s*\(\s*([^,)]*)(?:,\s*([^)]*))?\)")
_REGISTER = re.compile(r":\s*register\s*\(\s*[a-zA-Z]+(\w*)\s*(?:,\s*space(\w+)\s*)?\)")
_NUMTHREADS = re.compile(r"\bnumthreads\s*\(", re.IGNORECASE)
_BLANK = " \t\r\n\f\v" + JOIN
_VISIBLE = re.compile(f"[^{re.escape(_BLANK)}]")
_NUMBER = re.compile(r"^(?:0[xX][0-9a-fA-F]+|[0-9]+)[uU]?$")


@dataclass(frozen=True, slots=True)
class Declaration:
    """One top-level statement the scan understood."""

    line: int  # 1-based, in '\n' like compiler messages and the report's locator
    column: int  # 1-based column of the statement's first character
    names: tuple[str, ...]  # what the module may call it (instance, block or variable)
    set: int | None = None  # literal descriptor set (None: not written as a number)
    binding: int | None = None
    local_size: bool = False  # GLSL `layout(local_size_...) in;`
    function: str | None = None  # HLSL: the function a [numthreads] is attached to


@dataclass(frozen=True, slots=True)
class Declarations:
    statements: tuple[Declaration, ...]
    macros: frozenset[str]  # every name the source #defines

    def resource(self, name: str, set_: int | None = None,
                 binding: int | None = None) -> Declaration | None:
        """The one statement declaring ``name``, when that is certain."""
        if not name or name in self.macros:
            return None
        found = [d for d in self.statements if name in d.names]
        if len(found) != 1:
            return None
        declared = found[0]
        if set_ is not None and declared.set is not None and declared.set != set_:
            return None
        if binding is not None and declared.binding is not None \
                and declared.binding != binding:
            return None
        return declared

    def local_size(self, entry_point: str | None) -> Declaration | None:
        """The statement that sets the entry point's local size, when there is one."""
        found = [d for d in self.statements if d.local_size
                 or (d.function is not None and d.function == entry_point)]
        return found[0] if len(found) == 1 else None


@lru_cache(maxsize=64)
def declarations(source: str, language: str) -> Declarations:
    """The top-level declarations of a GLSL or HLSL source."""
    clean = cleaned(source)
    text = _without_directives(clean.text)
    numbers, macros = _defines(source)
    statements = []
    for start, end in _statements(text):
        body = text[start:end].replace(JOIN, " ")
        found = (_hlsl(body, numbers) if language == "HLSL" else _glsl(body, numbers))
        if found is not None:
            line, column = clean.position(start)
            statements.append(Declaration(line, column, *found))
    return Declarations(tuple(statements), macros)


def _without_directives(text: str) -> str:
    """Preprocessor lines blanked (a `#define` may hold text that looks like a
    declaration); lengths kept, so offsets still map to the source."""
    return re.sub(r"(?m)^[ \t\f\v\x1f]*#.*$", lambda m: " " * len(m.group()), text)


def _defines(source: str) -> tuple[dict[str, int], frozenset[str]]:
    """Names #defined once to a plain number (and never #undef'd), and every #defined name."""
    counts: dict[str, int] = {}
    values: dict[str, int] = {}
    for directive in directives(source):
        if directive.name not in ("define", "undef"):
            continue
        name, *value = directive.argument.split(None, 1) or [""]
        counts[name] = counts.get(name, 0) + 1 + (directive.name == "undef")
        number = _number(value[0], {}) if value else None
        if directive.name == "define" and number is not None:
            values[name] = number
    return ({n: v for n, v in values.items() if counts[n] == 1},
            frozenset(n.partition("(")[0] for n in counts))


def _number(text: str, numbers: dict[str, int]) -> int | None:
    text = text.strip()
    if _NUMBER.match(text):
        return int(text.rstrip("uU"), 0)
    return numbers.get(text)


def _statements(text: str) -> list[tuple[int, int]]:
    """(start, end) of every top-level statement: up to a `;`, or up to the `}` closing a
    function body (a `{` right after a `)`, e.g. `void main() {...}`)."""
    found: list[tuple[int, int]] = []
    depth = 0
    start = 0
    function_body = False
    for match in _STRUCTURE.finditer(text):
        char, index = match.group(), match.start()
        if char in "({[":
            if char == "{" and depth == 0:
                before = index - 1
                while before >= 0 and text[before] in _BLANK:
                    before -= 1
                function_body = before >= 0 and text[before] == ")"
            depth += 1
            continue
        if char in ")]" or (char == "}" and (depth != 1 or not function_body)):
            depth = max(0, depth - 1)
            continue
        if char == ";" and depth != 0:
            continue
        depth = 0  # a `;` at the top, or the `}` that ends a function body
        visible = _VISIBLE.search(text, start)
        first = visible.start() if visible is not None else index
        if first < index or char == "}":
            found.append((first, index + 1))
        start, function_body = index + 1, False
    return found


def _glsl(body: str, numbers: dict[str, int]) -> tuple | None:
    qualifiers: dict[str, str | None] = {}
    rest = body
    while (match := _LAYOUT.search(rest)) is not None:
        close = _closing(rest, match.end() - 1)
        if close is None:
            return None
        # (a comma inside a value's expression only makes that value unreadable: unknown)
        for item in rest[match.end():close].split(","):
            key, equals, value = item.partition("=")
            qualifiers[key.strip()] = value.strip() if equals else None
        rest = rest[:match.start()] + " " + rest[close + 1:]
    rest = rest.strip().rstrip(";").strip()
    if any(_LOCAL_SIZE_KEY.match(k) for k in qualifiers) and rest == "in":
        return (), None, None, True, None
    if not _GLSL_STORAGE.search(rest.partition("{")[0]):
        return None
    if "{" in rest:  # a block: `buffer Name { ... } instance[N]`
        head, _, tail = rest.partition("{")
        block = _last_identifier(head)
        instance = _last_identifier(tail.rpartition("}")[2].partition("[")[0])
        names = (instance,) if instance else (block,) if block else ()
    else:  # `uniform image2D name[N]`
        name = _last_identifier(rest.partition("[")[0])
        names = (name,) if name else ()
    if not names:
        return None
    set_text = qualifiers.get("set")
    binding_text = qualifiers.get("binding")
    set_ = 0 if "set" not in qualifiers else _number(set_text or "", numbers)
    binding = _number(binding_text or "", numbers) if "binding" in qualifiers else None
    return names, set_, binding, False, None


def _hlsl(body: str, numbers: dict[str, int]) -> tuple | None:
    attributes = []
    rest = body.strip()
    while _HLSL_ATTRIBUTE.match(rest) is not None:
        close = _closing(rest, 0)
        if close is None:
            return None
        attributes.append(rest[:close + 1])
        rest = rest[close + 1:].strip()
    rest = rest.rstrip(";").strip()
    said = " ".join(attributes)
    if rest.endswith("}") and not _HLSL_BLOCK.match(rest):  # a function definition
        if not _NUMTHREADS.search(said):
            return None
        name = _last_identifier(rest.partition("(")[0])
        return ((), None, None, False, name) if name else None
    block = _HLSL_BLOCK.match(rest)
    declarator = rest.partition("{")[0] if block else rest
    if block:
        name = block.group(1)
    else:
        head = _strip_templates(declarator.partition(":")[0].partition("=")[0])
        name = _last_identifier(head.partition("[")[0])
    if not name or name in ("struct", "static", "const"):
        return None
    set_ = binding = None
    explicit = _VK_BINDING.search(said)
    register = _REGISTER.search(declarator)
    if explicit is not None:
        binding = _number(explicit.group(1), numbers)
        set_ = _number(explicit.group(2), numbers) if explicit.group(2) else 0
    elif register is not None:
        binding = _number(register.group(1), numbers)
        set_ = _number(register.group(2), numbers) if register.group(2) else 0
    elif "vk::push_constant" not in said:
        return None  # not a resource (a constant, a struct, a groupshared array...)
    return (name,), set_, binding, False, None


def _closing(text: str, opening: int) -> int | None:
    """Index of the bracket closing the one at ``opening``."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    for index in range(opening, len(text)):
        char = text[index]
        if char in pairs:
            stack.append(pairs[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                return index
    return None


def _strip_templates(text: str) -> str:
    while True:
        stripped = re.sub(r"<[^<>]*>", " ", text)
        if stripped == text:
            return text
        text = stripped


def _last_identifier(text: str) -> str | None:
    found = _IDENTIFIER.findall(text)
    return found[-1] if found else None
