"""The `push_constants` string: "name: size, name: size" (VKS210-VKS213)."""

from __future__ import annotations

from collections.abc import Iterator

from ..attribute_values import IDENTIFIER, entry_size, split_entry
from ..diagnostics import Diagnostic, InnerPosition
from ..rule_registry import rule
from ..view import AttributeView

GUARANTEED_PUSH_CONSTANT_BYTES = 128

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
        entry = split_entry(chunk)
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
        if not IDENTIFIER.fullmatch(name):
            yield PUSH_CONSTANT_SYNTAX.at(
                pointer, f"push-constant name {name!r} is not an identifier",
                hint="use letters, digits and underscores, not starting with a digit",
                inner=column)
        size = entry_size(size_text)
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
