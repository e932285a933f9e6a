"""Completion of attribute keys and of the values whose names the Vulkan registry lists.

Keys: for each resource the op already has, the fields it still lacks (the four the
converter needs first), a whole new resource at the next free index, and the top-level
keys not yet written. Values: ``VK_FORMAT_*`` and ``VK_DESCRIPTOR_TYPE_*`` from the
generated registry tables, the resource types, the shader languages and the sampler
fields' values. Works on the text as typed (broken JSON included), in JSON and inside an
MLIR model's escaped attribute string (quotes written ``\\22`` or ``\\"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lsprotocol import types

from .. import vulkan
from ..keys import (
    DIRECTIONS,
    REQUIRED_RESOURCE_FIELDS,
    RESOURCE_FIELDS,
    RESOURCE_KEY_RE,
    TOP_LEVEL_KEYS,
)

_QUOTE = r'(?:\\22|\\"|")'
# The cursor inside a key being typed: after `{` or `,` (or alone on its line), an open
# quote and the start of a name.
_IN_KEY = re.compile(rf'(?:^|[{{,])\s*(?P<quote>{_QUOTE})(?P<typed>[A-Za-z0-9_]*)$')
# The cursor in a value being typed: `"key": "` or `"key": `, then the start of a name.
_IN_VALUE = re.compile(rf'{_QUOTE}(?P<key>[A-Za-z0-9_]+){_QUOTE}\s*:\s*'
                       rf'(?P<quote>{_QUOTE})?(?P<typed>[A-Za-z0-9_]*)$')
_KEY = re.compile(rf'{_QUOTE}([A-Za-z_][A-Za-z0-9_]*){_QUOTE}\s*:')
_RESOURCE_TYPES = ("Tensor", "Image", "Buffer")
_LANGUAGES = ("GLSL", "HLSL", "SPIR-V")


@dataclass(frozen=True, slots=True)
class Typed:
    """What is being typed at the cursor."""

    is_key: bool
    key: str | None  # the key whose value is typed
    typed: str  # the name typed so far
    quoted: bool  # an opening quote was typed


def typed_at(before: str) -> Typed | None:
    """What the text before the cursor (on its line) is typing, if a key or a value."""
    found = _IN_VALUE.search(before)
    if found is not None:
        return Typed(False, found["key"], found["typed"], found["quote"] is not None)
    found = _IN_KEY.search(before)
    if found is not None:
        return Typed(True, None, found["typed"], True)
    return None


def key_items(keys: list[str]) -> list[types.CompletionItem]:
    """The keys an op with ``keys`` may want next."""
    items: list[types.CompletionItem] = []
    rank = 0

    def add(key: str, detail: str) -> None:
        nonlocal rank
        rank += 1
        items.append(types.CompletionItem(
            key, kind=types.CompletionItemKind.Property, detail=detail,
            sort_text=f"{rank:04d}"))

    present = set(keys)
    fields: dict[tuple[str, int], set[str]] = {}
    for key in keys:
        match = RESOURCE_KEY_RE.match(key)
        if match is not None and len(match[2]) < 10:
            fields.setdefault((match[1], int(match[2])), set()).add(match[3])
    for (direction, index), have in sorted(fields.items()):
        for field in (*REQUIRED_RESOURCE_FIELDS,
                      *(f for f in RESOURCE_FIELDS if f not in REQUIRED_RESOURCE_FIELDS)):
            if field not in have:
                needed = "required" if field in REQUIRED_RESOURCE_FIELDS else "optional"
                add(f"{direction}_{index}_{field}",
                    f"{direction} {index} lacks it ({needed}): {RESOURCE_FIELDS[field]}")
    for direction in DIRECTIONS:
        index = 1 + max((i for d, i in fields if d == direction), default=-1)
        for field in REQUIRED_RESOURCE_FIELDS:
            add(f"{direction}_{index}_{field}",
                f"a new {direction} {index}: {RESOURCE_FIELDS[field]}")
    for key, meaning in TOP_LEVEL_KEYS.items():
        if key not in present:
            add(key, meaning)
    return items


def value_items(key: str) -> list[types.CompletionItem]:
    """The values a key takes, when they are names from a list."""
    field = key.rsplit("_", 1)[-1] if RESOURCE_KEY_RE.match(key) else key
    if field == "vkformat":
        names = [n for n in vulkan.format_names() if vulkan.canonical_format(n) == n]
        kind = types.CompletionItemKind.EnumMember
    elif field == "vkdescriptortype":
        names = [n for n in vulkan.descriptor_type_names()
                 if vulkan.canonical_descriptor_type(n) == n]
        kind = types.CompletionItemKind.EnumMember
    elif field == "type":
        names, kind = list(_RESOURCE_TYPES), types.CompletionItemKind.Value
    elif field == "shader_language":
        names, kind = list(_LANGUAGES), types.CompletionItemKind.Value
    else:
        from ..attribute_values import SAMPLER_FIELDS

        names, kind = list(SAMPLER_FIELDS.get(key, ())), types.CompletionItemKind.EnumMember
    return [types.CompletionItem(name, kind=kind) for name in names]


def existing_keys(text: str) -> list[str]:
    """The keys written in ``text`` (an op's attributes as typed, broken or not)."""
    return [match[1] for match in _KEY.finditer(text)]


def completions(before: str, op_text: str, quote: str,
                cursor: types.Position) -> list[types.CompletionItem]:
    """The completion items at ``cursor``, with ``before`` on its line before it, in an op
    whose attributes are ``op_text``; ``quote`` is how the document writes a quote (in
    MLIR, ``\\22``), for a value typed without one. Each item replaces the name typed so
    far."""
    typed = typed_at(before)
    if typed is None:
        return []
    items = key_items(existing_keys(op_text)) if typed.is_key else \
        value_items(typed.key or "")
    # (what was typed is ASCII: as many code units in any position encoding)
    start = types.Position(cursor.line, cursor.character - len(typed.typed))
    for item in items:
        text = item.label if typed.quoted else f"{quote}{item.label}{quote}"
        item.text_edit = types.TextEdit(types.Range(start, cursor), text)
        item.filter_text = item.label
    return items
