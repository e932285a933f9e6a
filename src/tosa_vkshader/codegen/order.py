"""The canonical key order of an attribute object, for objects valid or not.

Top-level keys in the spec's order; then inputs, then outputs, by index, each with its
fields in the order vkformat, vkdescriptortype, type, binding, descriptorset, sampler and
then fields nobody knows yet; then every other key (``is_vkshader``, unknown keys, near
misses) in the order it had. :meth:`tosa_vkshader.typed_attributes.Attributes.to_attrs` writes the
same order for valid objects.
"""

from __future__ import annotations

from typing import Any

from ..keys import RESOURCE_FIELDS, TOP_LEVEL_KEYS, KeyKind, classify

_FIELD_ORDER = {name: position for position, name in enumerate(
    ("vkformat", "vkdescriptortype", "type", "binding", "descriptorset", "sampler"))}
_DIRECTION_ORDER = {"input": 0, "output": 1}
_TOP_ORDER = {name: position for position, name in enumerate(TOP_LEVEL_KEYS)}
assert set(_FIELD_ORDER) == set(RESOURCE_FIELDS)


def _sort_key(item: tuple[int, str]) -> tuple:
    position, key = item
    info = classify(key)
    if info.kind is KeyKind.TOP_LEVEL:
        return (0, _TOP_ORDER[key], 0, 0, 0)
    if info.kind in (KeyKind.RESOURCE, KeyKind.RESOURCE_UNKNOWN_FIELD):
        field_rank = _FIELD_ORDER.get(info.field or "", len(_FIELD_ORDER))
        return (1, _DIRECTION_ORDER[info.direction or "input"], info.index or 0, field_rank,
                position)
    return (2, 0, 0, 0, position)


def canonical_order(attrs: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``attrs`` with its keys in canonical order (values untouched)."""
    ordered = sorted(enumerate(attrs), key=_sort_key)
    return {key: attrs[key] for _position, key in ordered}
