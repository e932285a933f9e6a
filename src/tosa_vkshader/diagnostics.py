"""Diagnostics, their locations, their fixes, and the rules that make them.

Every problem the tool reports is a :class:`Diagnostic` made by a :class:`Rule`. Every
rule has a row in ``rule_registry.RULES`` (code, name, severity) and is declared with its
documentation (what, why, a bad and a good example) next to the check that emits it.
Where the rule knows the repair, the diagnostic carries a :class:`Fix` (made with
:func:`rename_key`, :func:`replace_value` or from :func:`key_edit`, :func:`value_edit`,
:func:`insert_after`); ``fixes.apply_fixes`` applies them to a text.
"""

from __future__ import annotations

import enum
import json
import re
from dataclasses import dataclass
from typing import Any


class Severity(enum.IntEnum):
    """How bad a diagnostic is. Ordered so that ``max()`` gives the worst."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        return cls[text.strip().upper()]


@dataclass(frozen=True, slots=True)
class Location:
    """A 1-based line/column position (columns count Unicode code points).

    Binary models (``.tosa``) have no lines: there ``line`` and ``column`` are 0 and
    ``logical`` names the place (region, block, operator index and name).
    """

    path: str | None
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None
    logical: str | None = None

    def __str__(self) -> str:
        if self.line < 1:
            where = f": {self.logical}" if self.logical else ""
            return f"{self.path or '<input>'}{where}"
        return f"{self.path or '<input>'}:{self.line}:{self.column}"



@dataclass(frozen=True, slots=True)
class InnerPosition:
    """A 1-based line/column inside the decoded text of a JSON string value.

    Used for problems inside ``shader_code``: the source locator maps it through the
    JSON string's escapes back to a position in the file.
    """

    line: int
    column: int



@dataclass(frozen=True, slots=True)
class ShaderPlace:
    """Where in the op's shader a finding located elsewhere (at an attribute key) comes
    from: the declaration's line and column in the GLSL/HLSL source, or, for embedded
    SPIR-V, the instruction in assembly syntax (``OpDecorate %dst Binding 1``)."""

    position: InnerPosition | None = None
    instruction: str | None = None



class Applicability(enum.Enum):
    """How far a fix can be trusted (ruff's three kinds)."""

    # Keeps what the op means: `fix` applies it.
    SAFE = "safe"
    # May change what the op means (a guess, or one of two sides picked): applied with
    # `fix --unsafe-fixes`, offered to a person otherwise.
    UNSAFE = "unsafe"
    # A suggestion to show, never applied by a tool.
    DISPLAY_ONLY = "display-only"


class Part(enum.Enum):
    """What of the member at an edit's pointer it replaces."""

    KEY = "key"
    VALUE = "value"
    # Nothing: a new member is inserted after the member at the pointer.
    AFTER = "after"


@dataclass(frozen=True, slots=True)
class Edit:
    """One change of the checked text.

    ``pointer`` (relative to the op's attributes, as a diagnostic's) and ``part`` say
    where; ``content`` is what goes there as JSON text (a key's token, a value, or for
    ``AFTER`` a whole ``"key": value`` member). ``range`` and ``text`` are filled in when
    the diagnostic is located: None until then, or where the op's file has no text to
    edit (a .tosa flatbuffer)."""

    pointer: str
    part: Part
    content: str
    range: Location | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Fix:
    """The repair of one diagnostic: its edits are applied together or not at all."""

    title: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE

    @property
    def located(self) -> bool:
        """Whether every edit knows its range in the checked text (can be applied)."""
        return all(edit.range is not None and edit.text is not None for edit in self.edits)

    def applies(self, unsafe: bool = False) -> bool:
        """Whether ``fix`` applies it (with ``--unsafe-fixes`` when ``unsafe``)."""
        wanted = (Applicability.SAFE, Applicability.UNSAFE) if unsafe else \
            (Applicability.SAFE,)
        return self.applicability in wanted and self.located


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_text(value: Any, indent: int | None = None) -> str:
    """``value`` as JSON, text as it is (not \\u-escaped), but a lone surrogate (which
    has no UTF-8 form) as its escape, so that any file can be written."""
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}",
                               json.dumps(value, indent=indent, ensure_ascii=False))


def rename_key(pointer: str, new_key: str, *, title: str | None = None,
               applicability: Applicability = Applicability.SAFE) -> Fix:
    """The fix that gives the member at ``pointer`` the key ``new_key``, keeping its
    value."""
    old = pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
    return Fix(title or f"renamed `{old}` to `{new_key}`", (key_edit(pointer, new_key),),
               applicability)


def replace_value(pointer: str, value: Any, *, title: str,
                  applicability: Applicability = Applicability.SAFE) -> Fix:
    """The fix that puts ``value`` in place of the value at ``pointer``."""
    return Fix(title, (value_edit(pointer, value),), applicability)


def key_edit(pointer: str, new_key: str) -> Edit:
    return Edit(pointer, Part.KEY, json_text(new_key))


def value_edit(pointer: str, value: Any) -> Edit:
    return Edit(pointer, Part.VALUE, json_text(value))


def insert_after(pointer: str, key: str, value: Any) -> Edit:
    """A new member ``key: value`` right after the member at ``pointer``, laid out as
    that member is (on a line of its own, or on the same line)."""
    return Edit(pointer, Part.AFTER, f"{json_text(key)}: {json_text(value)}")


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    pointer: str = ""
    hint: str | None = None
    location: Location | None = None
    inner: InnerPosition | None = None
    # Where the pointer should be placed: on the key itself or on its value.
    on_key: bool = False
    # The repair, where the rule knows it (Fix above); its edits get their ranges in the
    # checked text when the diagnostic is located.
    fix: Fix | None = None
    # The target device a finding is about (VKS7xx); None for everything else.
    target: str | None = None
    # The shader declaration a cross-check finding is about (it points at the attribute).
    shader_place: ShaderPlace | None = None

    @property
    def shader_position(self) -> InnerPosition | None:
        """The line and column inside the op's ``shader_code``: where a compile error is,
        or the declaration a finding at another key is about."""
        if self.shader_place is not None and self.shader_place.position is not None:
            return self.shader_place.position
        if self.inner is not None and self.pointer.endswith("/shader_code"):
            return self.inner  # (inner is also used inside other strings: push_constants)
        return None

    def located(self, location: Location | None) -> Diagnostic:
        # (spelled out: dataclasses.replace builds a dict of the fields, once per finding)
        return Diagnostic(self.code, self.severity, self.message, self.pointer, self.hint,
                          location, self.inner, self.on_key, self.fix, self.target,
                          self.shader_place)

    def sort_key(self) -> tuple:
        loc = self.location
        return (
            loc.path or "" if loc else "",
            loc.line if loc else 0,
            loc.column if loc else 0,
            self.code,
            self.pointer,
            self.target or "",
        )


@dataclass(frozen=True, slots=True)
class Rule:
    """A documented check. Declared with ``rule_registry.rule``; emit with :meth:`at`."""

    code: str
    name: str
    severity: Severity
    summary: str
    why: str
    bad: str
    good: str
    group: str

    def at(
        self,
        pointer: str,
        message: str,
        *,
        hint: str | None = None,
        inner: InnerPosition | None = None,
        on_key: bool = False,
        severity: Severity | None = None,
        fix: Fix | None = None,
        target: str | None = None,
        shader_place: ShaderPlace | None = None,
    ) -> Diagnostic:
        return Diagnostic(
            code=self.code,
            severity=severity or self.severity,
            message=message,
            pointer=pointer,
            hint=hint,
            inner=inner,
            on_key=on_key,
            fix=fix,
            target=target,
            shader_place=shader_place,
        )

    @property
    def docs(self) -> str:
        """Where this rule's documentation is, wherever the tool is installed: the command
        that prints it (the same text as docs/rules.md and the web's /v1/rules/CODE)."""
        return f"tosa-vkshader rule {self.code}"

    @property
    def help_markdown(self) -> str:
        """The rule's documentation as Markdown, for reports that embed it (SARIF)."""
        return (f"**{self.code} {self.name}**: {self.summary}\n\n{self.why}\n\n"
                f"Bad:\n\n```\n{self.bad}\n```\n\nGood:\n\n```\n{self.good}\n```\n\n"
                f"More: `{self.docs}`")


def escape_pointer_token(token: str | int) -> str:
    text = str(token)
    if "~" in text or "/" in text:
        return text.replace("~", "~0").replace("/", "~1")
    return text


def pointer_join(base: str, *tokens: str | int) -> str:
    if len(tokens) == 1:  # the common case, kept cheap: it runs for every key located
        return f"{base}/{escape_pointer_token(tokens[0])}"
    return base + "".join(["/" + escape_pointer_token(t) for t in tokens])


def resolve_pointer(document: object, pointer: str) -> object | None:
    """The value at an RFC 6901 pointer, or None when there is none."""
    node = document
    for raw in pointer.split("/")[1:] if pointer else []:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def worst(diagnostics: list[Diagnostic]) -> Severity | None:
    return max((d.severity for d in diagnostics), default=None)
