"""Small questions about SPIR-V types shared by reflection and code generation."""

from __future__ import annotations

from collections.abc import Mapping

from .module import Type


def scalar_name(t: Type) -> str | None:
    """``int32``, ``uint8``, ``float16``, ``bool``; None for anything not a scalar."""
    if t.kind == "int":
        return f"{'int' if t.signed else 'uint'}{t.width}"
    if t.kind == "float":
        return f"float{t.width}"
    if t.kind == "bool":
        return "bool"
    return None


def scalar_leaves(types: Mapping[int, Type], type_id: int, *,
                  with_handles: bool = False) -> set[str]:
    """Every scalar type inside a type (through vectors, matrices, arrays and structs,
    not through pointers). With ``with_handles``, other leaf kinds (pointers, images)
    are named too, so a caller can tell a plain numeric layout from one that is not."""
    found: set[str] = set()
    seen: set[int] = set()
    todo = [type_id]
    while todo:
        current = todo.pop()
        t = types.get(current)
        if t is None or current in seen:
            continue
        seen.add(current)
        scalar = scalar_name(t)
        if scalar is not None:
            found.add(scalar)
        elif t.kind in ("vector", "matrix", "array", "runtime_array"):
            todo.append(t.element)
        elif t.kind == "struct":
            todo.extend(t.members)
        elif with_handles:
            found.add(t.kind)
    return found
