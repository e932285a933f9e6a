"""The grammar of the attribute values that are more than a JSON type: the
``push_constants`` string ("name: size, name: size") and the sampler's fields with the
Vulkan names the reference JSON Schema lists for them. The rules check values against it;
the typed model (model.py) is built from it."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Sizes beyond this many digits are not numbers anyone means (and never converted).
MAX_SIZE_DIGITS = 18
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class PushConstantEntry:
    name: str
    size: int


def split_entry(chunk: str) -> tuple[str, str] | None:
    """`name: size` as stripped (name, size text), or None without a colon.

    Plain string operations: the regular expression this replaces took minutes on an
    entry of a few thousand spaces.
    """
    name, colon, size = chunk.partition(":")
    if not colon:
        return None
    return name.strip(), size.strip()


def entry_size(text: str) -> int | None:
    if text.isascii() and text.isdigit() and len(text) <= MAX_SIZE_DIGITS:
        return int(text)
    return None


def parse_push_constants(text: str) -> list[PushConstantEntry] | None:
    """Structured entries, or None when the text does not follow the grammar."""
    if text.strip() == "":
        return []
    entries = []
    for chunk in text.split(","):
        entry = split_entry(chunk)
        size = entry_size(entry[1]) if entry is not None else None
        if entry is None or size is None or not IDENTIFIER.fullmatch(entry[0]):
            return None
        entries.append(PushConstantEntry(entry[0], size))
    return entries


# The sampler values the reference JSON Schema lists. The converter also maps the other
# registry names (VK_FILTER_CUBIC_EXT, ..._MIRROR_CLAMP_TO_EDGE_KHR), but the schema
# refuses them: errors, whose message says what the converter does.
SAMPLER_FIELDS: dict[str, tuple[str, ...]] = {
    "min_filter": ("VK_FILTER_NEAREST", "VK_FILTER_LINEAR", "VK_FILTER_CUBIC_IMG"),
    "mag_filter": ("VK_FILTER_NEAREST", "VK_FILTER_LINEAR", "VK_FILTER_CUBIC_IMG"),
    "address_mode_u": (
        "VK_SAMPLER_ADDRESS_MODE_REPEAT",
        "VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT",
        "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE",
        "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER",
        "VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE",
    ),
    "border_color": (
        "VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK",
        "VK_BORDER_COLOR_INT_TRANSPARENT_BLACK",
        "VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK",
        "VK_BORDER_COLOR_INT_OPAQUE_BLACK",
        "VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE",
        "VK_BORDER_COLOR_INT_OPAQUE_WHITE",
        "VK_BORDER_COLOR_FLOAT_CUSTOM_EXT",
        "VK_BORDER_COLOR_INT_CUSTOM_EXT",
    ),
}
SAMPLER_FIELDS["address_mode_v"] = SAMPLER_FIELDS["address_mode_u"]
SAMPLER_FIELDS = {k: SAMPLER_FIELDS[k] for k in
                  ("min_filter", "mag_filter", "address_mode_u", "address_mode_v",
                   "border_color")}
