"""Hover: the documentation of the rules behind the diagnostics under the cursor, and of
the attribute key under it (what the key means and which values it takes), from the
texts the checker already has (the rules' own documentation, the key grammar, the Vulkan
registry tables)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import vulkan
from ..keys import (
    EXTENSION_KEYS,
    REQUIRED_RESOURCE_FIELDS,
    RESOURCE_FIELDS,
    TOP_LEVEL_KEYS,
    KeyKind,
    classify,
)

if TYPE_CHECKING:
    from ..diagnostics import Rule
    from .cursor import KeyPlace

_RESOURCE_TYPES = ("Tensor", "Image", "Buffer")
_LANGUAGES = ("GLSL", "HLSL", "SPIR-V")


def rule_of(code: str) -> Rule | None:
    """A rule's documentation, by code."""
    from ..rule_registry import find
    from ..rules_doc import documented

    entry = find(code)
    return documented(entry) if entry is not None else None


def rule_markdown(code: str) -> str | None:
    found = rule_of(code)
    return found.help_markdown if found is not None else None


def key_markdown(place: KeyPlace) -> str | None:
    """What the key means, the values it takes, and what its value here is."""
    info = classify(place.key)
    value = place.value
    if info.kind is KeyKind.TOP_LEVEL:
        text = f"**`{place.key}`**: {TOP_LEVEL_KEYS[place.key]}"
        if place.key == "shader_language":
            text += "\n\nValues: " + ", ".join(f"`{v}`" for v in _LANGUAGES) \
                + " (or `\"\"` with no `shader_code`)."
        return text
    if info.kind is KeyKind.EXTENSION:
        return f"**`{place.key}`**: {EXTENSION_KEYS[place.key]}"
    if info.kind is KeyKind.RESOURCE and info.field is not None:
        needed = "required" if info.field in REQUIRED_RESOURCE_FIELDS else "optional"
        text = (f"**`{place.key}`**: {info.direction} {info.index}, "
                f"{RESOURCE_FIELDS[info.field]} ({needed} for every {info.direction})")
        return text + _values(info.field, value)
    if info.kind is KeyKind.NEAR_MISS:
        text = f"**`{place.key}`** is not a key of the format: {info.explanation}."
        if info.suggestion:
            text += f" Did you mean `{info.suggestion}`?"
        return text
    if info.kind is KeyKind.RESOURCE_UNKNOWN_FIELD:
        known = ", ".join(f"`{f}`" for f in RESOURCE_FIELDS)
        return (f"**`{place.key}`**: a field the format does not define (kept as it is). "
                f"Known fields: {known}.")
    return (f"**`{place.key}`**: not a key of the format (unknown keys are kept for "
            "forward compatibility).")


def _values(field: str, value: object) -> str:
    """The values a resource field takes, and what the value here is."""
    if field == "vkdescriptortype":
        from ..rules.resources import KIND_OF_DESCRIPTOR, UNSUITABLE_TYPES

        names = vulkan.descriptor_type_names()
        text = "\n\nValues: " + ", ".join(f"`{n}`" for n in names if
                                          vulkan.canonical_descriptor_type(n) == n) + "."
        if isinstance(value, str) and value in KIND_OF_DESCRIPTOR:
            text += f"\n\n`{value}` is a {KIND_OF_DESCRIPTOR[value].lower()} resource."
        if isinstance(value, str) and value in UNSUITABLE_TYPES:
            text += f" It cannot carry an operand or result: {UNSUITABLE_TYPES[value][1]}."
        return text
    if field == "vkformat":
        count = sum(1 for n in vulkan.format_names() if vulkan.canonical_format(n) == n)
        text = (f"\n\nValues: one of the {count} `VK_FORMAT_*` names of the Vulkan registry "
                f"({vulkan.REGISTRY_VERSION}).")
        info = vulkan.format_info(value) if isinstance(value, str) else None
        if info is not None:
            parts = " ".join(f"{c.channel}{c.bits} {c.numeric}" for c in info.components)
            text += (f"\n\n`{info.name}`: {info.block_size} bytes per texel block"
                     f"{', components ' + parts if parts else ''}.")
        return text
    if field == "type":
        return "\n\nValues: " + ", ".join(f"`{v}`" for v in _RESOURCE_TYPES) + \
            " (matched without regard to case)."
    if field == "sampler":
        from ..attribute_values import SAMPLER_FIELDS

        rows = "\n".join(f"- `{name}`: " + ", ".join(f"`{v}`" for v in values)
                         for name, values in SAMPLER_FIELDS.items())
        return "\n\nFields (all five required):\n\n" + rows
    if field in ("binding", "descriptorset"):
        return "\n\nValues: an integer from 0 to 4294967295."
    return ""
