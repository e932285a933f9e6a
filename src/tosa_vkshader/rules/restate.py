"""Attribute findings said again once the shader is known, with the hint it makes
possible. The later statement replaces the earlier one (``check.finish`` keeps the last
of a code, pointer and message): VKS222 moves the resource the shader disagrees with
instead of the later one to some free number, and VKS110 names the module's entry point.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from ..view import AttributeView
from .key_names import missing_required
from .resources import binding_collisions

if TYPE_CHECKING:
    from ..shader import Shader


def restated(view: AttributeView, shader: Shader, moves: dict[str, str]) -> list[Diagnostic]:
    """``moves``: binding key -> the cross-check's move for a misplaced resource."""
    return _collisions(view, moves) + _entry_point(view, shader)


def _collisions(view: AttributeView, moves: dict[str, str]) -> list[Diagnostic]:
    collisions = list(binding_collisions(view))
    if not collisions:
        return []  # (most ops)
    slot_of = {}
    for resource in view.resources.values():
        dset, binding = resource.int_value("descriptorset"), resource.int_value("binding")
        if dset is not None and binding is not None:
            slot_of[resource.pointer("binding", view.base)] = (dset, binding)
    found = []
    for diag in collisions:
        sharing = [p for p, slot in slot_of.items() if slot == slot_of.get(diag.pointer)]
        movable = [moves[p] for p in sharing if p in moves]
        found.append(replace(diag, hint=movable[0] if len(movable) == 1 else None))
    return found


def _entry_point(view: AttributeView, shader: Shader) -> list[Diagnostic]:
    reflection = shader.reflection
    if reflection is None or "entry_point" in view.attrs or any(
            info.suggestion == "entry_point" for info in view.keys.values()):
        return []
    computes = [e.name for e in reflection.entry_points if e.execution_model == "GLCompute"]
    if len(computes) != 1:
        return []
    return [missing_required(view, "entry_point", f'add `"entry_point": "{computes[0]}"`')]
