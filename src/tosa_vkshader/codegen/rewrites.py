"""Rewrites `fix` makes that no diagnostic asks for, as fixes of the same kind (fixes.py):
the optional ``_type`` members a descriptor type determines, the GLSL/HLSL shader
replaced by its SPIR-V (``--embed spirv``) and the keys in canonical order
(``--sort-keys``). Each is made from an op's attributes, with edits at pointers relative
to them; the op places them in its file and ``fixes.apply_edits`` applies them, as it
applies the diagnostics' own fixes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import vulkan
from ..config import Options
from ..diagnostics import (
    Diagnostic,
    Edit,
    Fix,
    Part,
    insert_after,
    json_text,
    pointer_join,
    value_edit,
)
from ..embed import compiled
from ..keys import KeyKind, classify, resource_key
from ..rules.resources import KIND_OF_DESCRIPTOR
from .codegen_rules import FIX_EMBED_FAILED
from .order import canonical_order


def type_members(attrs: dict[str, Any]) -> list[Fix]:
    """For each resource without ``_type`` whose descriptor type says what it binds, the
    member ``"input_0_type": "Buffer"`` added after its ``_vkdescriptortype``."""
    added = []
    for key, value in attrs.items():
        info = classify(key)
        if info.kind is not KeyKind.RESOURCE or info.field != "vkdescriptortype" or \
                not isinstance(value, str):
            continue
        assert info.direction is not None and info.index is not None
        type_key = resource_key(info.direction, info.index, "type")
        descriptor = vulkan.canonical_descriptor_type(value)
        kind = KIND_OF_DESCRIPTOR.get(descriptor) if descriptor else None
        if kind is not None and type_key not in attrs:
            added.append(Fix(f"added `{type_key}`: {kind!r} (from {descriptor})",
                             (insert_after(pointer_join("", key), type_key, kind),)))
    return added


def embedded_spirv(ops: Sequence[dict[str, Any]], options: Options
                   ) -> list[tuple[Fix | None, list[Diagnostic]]]:
    """For each op's attributes: the fix that replaces its GLSL/HLSL by the SPIR-V it
    compiles to (None when it has no such shader), or, when it does not compile, no fix
    and why."""
    found: list[tuple[Fix | None, list[Diagnostic]]] = []
    for built in compiled(ops, options):
        if built is None:
            found.append((None, []))
        elif built.spirv is None:
            found.append((None, [*built.diagnostics, FIX_EMBED_FAILED.at(
                built.code_pointer, f"the {built.language} shader does not compile, so "
                "there is no SPIR-V to embed; it is left as it is",
                hint="fix the shader errors above first")]))
        else:
            found.append((Fix(f"embedded the {built.language} shader as {len(built.spirv)} "
                              "bytes of SPIR-V", (value_edit("/shader_language", "SPIR-V"),
                                                  value_edit("/shader_code",
                                                             built.shader_code))), []))
    return found


def canonical_keys(attrs: dict[str, Any]) -> Fix | None:
    """The attribute object written again with its keys in canonical order (indented by
    two spaces), or None when they are in that order already."""
    ordered = canonical_order(attrs)
    if list(ordered) == list(attrs):
        return None
    return Fix("keys put in canonical order",
               (Edit("", Part.VALUE, json_text(ordered, indent=2)),))
