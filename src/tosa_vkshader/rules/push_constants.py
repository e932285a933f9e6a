"""The `push_constants` string: "name: size, name: size" (VKS210-VKS213)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..diagnostics import Diagnostic, InnerPosition
from ..rule_registry import rule
from ..view import AttributeView

GUARANTEED_PUSH_CONSTANT_BYTES = 128
# Sizes beyond this many digits are not numbers anyone means (and never converted).
MAX_SIZE_DIGITS = 18
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

PUSH_CONSTANT_SYNTAX = rule(
    "VKS210",
    summary='`push_constants` does not follow "name: size, name: size".',
    why="The converter splits the string on commas and colons; an entry without a colon, "
        "a name that is not an identifier or a size that is not a decimal integer gives "
        "a wrong push-constant range.",
    bad='{"push_constants": "scale=4; bias=4"}',
    good='{"push_constants": "scale: 4, bias: 4"}',
)
PUSH_CONSTANT_DUPLICATE = rule(
    "VKS211",
    summary="A push-constant name appears twice.",
    why="Each entry is one member of the push-constant block; a repeated name means the "
        "layout is ambiguous.",
    bad='{"push_constants": "scale: 4, scale: 4"}',
    good='{"push_constants": "scale: 4, bias: 4"}',
)
PUSH_CONSTANT_SIZE = rule(
    "VKS212",
    summary="A push-constant size is zero or not a multiple of 4 bytes.",
    why="Push-constant ranges are measured in bytes and Vulkan requires offsets and sizes "
        "that are multiples of 4.",
    bad='{"push_constants": "scale: 2"}',
    good='{"push_constants": "scale: 4"}',
)
PUSH_CONSTANTS_OVER_LIMIT = rule(
    "VKS213",
    summary="The push constants add up to more than 128 bytes.",
    why="Vulkan guarantees only 128 bytes of push constants (maxPushConstantsSize); larger "
        "blocks fail on devices that report the minimum.",
    bad='{"push_constants": "matrix: 64, more: 80"}',
    good='{"push_constants": "matrix: 64, bias: 16"}',
)


@dataclass(frozen=True, slots=True)
class PushConstantEntry:
    name: str
    size: int


def _split_entry(chunk: str) -> tuple[str, str] | None:
    """`name: size` as stripped (name, size text), or None without a colon.

    Plain string operations: the regular expression this replaces took minutes on an
    entry of a few thousand spaces.
    """
    name, colon, size = chunk.partition(":")
    if not colon:
        return None
    return name.strip(), size.strip()


def _size(text: str) -> int | None:
    if text.isascii() and text.isdigit() and len(text) <= MAX_SIZE_DIGITS:
        return int(text)
    return None


def parse_push_constants(text: str) -> list[PushConstantEntry] | None:
    """Structured entries, or None when the text does not follow the grammar."""
    if text.strip() == "":
        return []
    entries = []
    for chunk in text.split(","):
        entry = _split_entry(chunk)
        if entry is None or not _IDENTIFIER.fullmatch(entry[0]) or _size(entry[1]) is None:
            return None
        entries.append(PushConstantEntry(entry[0], _size(entry[1])))
    return entries


def check_push_constants(view: AttributeView) -> Iterator[Diagnostic]:
    text = view.attrs.get("push_constants")
    if not isinstance(text, str) or text.strip() == "":
        return
    pointer = view.pointer("push_constants")
    seen: set[str] = set()
    total = 0
    offset = 0
    for chunk in text.split(","):
        column = InnerPosition(1, offset + 1 + (len(chunk) - len(chunk.lstrip())))
        offset += len(chunk) + 1
        entry = _split_entry(chunk)
        if chunk.strip() == "":
            yield PUSH_CONSTANT_SYNTAX.at(pointer, f"`push_constants` {text!r} has an empty "
                                          "entry", hint="remove the extra comma", inner=column)
            continue
        if entry is None:
            yield PUSH_CONSTANT_SYNTAX.at(
                pointer, f"`push_constants` entry {chunk.strip()!r} has no `name: size` form",
                hint='write entries as "name: size", separated by commas', inner=column)
            continue
        name, size_text = entry
        if not _IDENTIFIER.fullmatch(name):
            yield PUSH_CONSTANT_SYNTAX.at(
                pointer, f"push-constant name {name!r} is not an identifier",
                hint="use letters, digits and underscores, not starting with a digit",
                inner=column)
        size = _size(size_text)
        if size is None:
            what = (f"a size of {len(size_text)} digits" if size_text.isascii()
                    and size_text.isdigit() else f"size {size_text!r}, not a decimal integer")
            yield PUSH_CONSTANT_SYNTAX.at(
                pointer, f"push-constant `{name}` has {what}",
                hint="give the size in bytes, e.g. 4", inner=column)
            continue
        total += size
        if name in seen:
            yield PUSH_CONSTANT_DUPLICATE.at(pointer, f"push-constant name `{name}` appears "
                                             "more than once", inner=column,
                                             hint="give each member its own name")
        seen.add(name)
        if size == 0 or size % 4:
            rounded = max(4, (size + 3) // 4 * 4)
            yield PUSH_CONSTANT_SIZE.at(
                pointer, f"push-constant `{name}` has size {size}; sizes are positive "
                "multiples of 4 bytes", hint=f"use {rounded}", inner=column)
    if total > GUARANTEED_PUSH_CONSTANT_BYTES:
        yield PUSH_CONSTANTS_OVER_LIMIT.at(
            pointer, f"push constants total {total} bytes; Vulkan guarantees only "
            f"{GUARANTEED_PUSH_CONSTANT_BYTES}",
            hint="move large parameters into a uniform or storage buffer")
