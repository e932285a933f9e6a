"""The JSON type each key needs (VKS200). Other rules skip values of the wrong type."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from ..keys import TOP_LEVEL_KEYS, KeyKind, classify
from ..rule_registry import rule
from ..sources.jsontext import json_type
from ..view import AttributeView

if TYPE_CHECKING:
    from typing import Any

WRONG_TYPE = rule(
    "VKS200",
    summary="A value has the wrong JSON type (a string where an integer belongs, ...).",
    why="The spec and its JSON Schema give each key a type, and the converter reads each "
        "key with that type; `\"0\"` is not the binding 0, and `true` or `1.0` are not "
        "integers. `null` is no value of any of these types: the reference converter "
        "reads it as \"absent\" (a required key set to null is missing), but the spec's "
        "schema refuses it, so it is an error here too. `_type` has a type like every "
        "other key, although the converter never reads it.",
    bad='{"input_0_binding": "0", "workgroup_sizes": [8.0, 8, 1], "push_constants": null}',
    good='{"input_0_binding": 0, "workgroup_sizes": [8, 8, 1]}',
)

NULL_AS_ABSENT = rule(
    "VKS243",
    summary="A key the spec does not define has the value `null`; it is read as if the "
            "key were absent.",
    why="The reference converter treats `null` as \"absent\" for every key it reads. For "
        "the keys the spec defines, null is a wrong type (VKS200, an error: the spec's "
        "schema refuses it); for other keys (`is_vkshader`, a tool's own key) this info "
        "says it is read as absent, since the file suggests the key was meant to be "
        "there.",
    bad='{"is_vkshader": null}',
    good="{}  (leave the key out)",
)

TOP_LEVEL_TYPES = {
    "entry_point": "string",
    "workgroup_sizes": "array",
    "shader_language": "string",
    "shader_code": "string",
    "push_constants": "string",
    "is_vkshader": "boolean",
}
RESOURCE_TYPES = {
    "vkformat": "string",
    "vkdescriptortype": "string",
    "type": "string",
    "binding": "integer",
    "descriptorset": "integer",
    "sampler": "object",
}


_PYTHON_TYPES = {"string": (str,), "integer": (int,), "boolean": (bool,), "array": (list,),
                 "object": (dict,), "number": (float, int), "null": (type(None),)}


def has_type(value: Any, expected: str) -> bool:
    return type(value) in _PYTHON_TYPES[expected]  # exact: bool is not an integer here


def describe(value: Any) -> str:
    text = repr(value) if not isinstance(value, (dict, list)) else json_type(value)
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif value is None:
        text = "null"
    elif isinstance(value, str):
        text = '"' + (value if len(value) <= 40 else value[:37] + "...") + '"'
    return f"{text} ({json_type(value)})"


def _type_hint(value: Any, expected: str) -> str | None:
    if expected == "integer" and isinstance(value, str) and value.strip().isdigit():
        return f"write the number without quotes: {int(value)}"
    if expected == "integer" and isinstance(value, float) and value.is_integer():
        return f"write {int(value)}"
    if expected == "boolean" and value in ("true", "false"):
        return f"write {value} without quotes"
    # (a number or true where a name is wanted: quoting it would not make it a name)
    return None


def _spec_type(key: str) -> str | None:
    """The JSON type the spec gives ``key`` (None for keys it does not define)."""
    if key in TOP_LEVEL_KEYS:
        return TOP_LEVEL_TYPES[key]
    info = classify(key)
    if info.kind is KeyKind.RESOURCE and info.field is not None:
        return RESOURCE_TYPES[info.field]
    return None


def _article(expected: str) -> str:
    return "an" if expected[0] in "aio" else "a"


def check_value_types(view: AttributeView) -> Iterator[Diagnostic]:
    for key in view.nulls:
        expected = _spec_type(key)
        if expected is None:
            yield NULL_AS_ABSENT.at(view.pointer(key), f"`{key}` is null: the reference "
                                    "converter reads null as absent, and so does this check",
                                    hint="leave the key out, or give it a value")
            continue
        yield WRONG_TYPE.at(view.pointer(key),
                            f"`{key}` must be {_article(expected)} {expected}, got null: "
                            "the spec's schema refuses null (the reference converter "
                            "reads it as absent)", hint="leave the key out, or give it a value")
    for key, expected in TOP_LEVEL_TYPES.items():
        if key in view.attrs and not has_type(view.attrs[key], expected):
            value = view.attrs[key]
            yield WRONG_TYPE.at(view.pointer(key),
                                f"`{key}` must be {_article(expected)} {expected}, got "
                                f"{describe(value)}", hint=_type_hint(value, expected))
    for resource in view.resources.values():
        for field, (key, value) in resource.fields.items():
            expected = RESOURCE_TYPES[field]
            if not has_type(value, expected):
                ignored = field == "type"  # the converter never reads `_type`
                yield WRONG_TYPE.at(resource.pointer(field, view.base),
                                    f"`{key}` must be {_article(expected)} {expected}, got "
                                    f"{describe(value)}"
                                    + ("; the spec gives `_type` a string (the reference "
                                       "converter ignores the key)" if ignored else ""),
                                    hint=_type_hint(value, expected))
