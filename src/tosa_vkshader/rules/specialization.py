"""Specialization constants the pipeline never specializes (VKS432)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from ..rule_registry import rule
from ..spirv.grammar import OPS, RESULT_WORD, enum_value
from ..spirv.words import instructions
from ..view import AttributeView

if TYPE_CHECKING:
    from ..shader import Shader
    from ..spirv.module import Constant

SPEC_ID_DEFAULTS_DIFFER = rule(
    "VKS432",
    summary="Specialization constants that share a SpecId have different defaults.",
    why="Constants with one SpecId are one value wherever a pipeline specializes it: ggml "
        "and ncnn declare `layout(constant_id = 0) const uint BLOCK_SIZE = 128;` beside "
        "`layout(local_size_x_id = 0) in;` and size shared memory and loop strides by "
        "BLOCK_SIZE. The reference runtime never specializes (the attributes cannot), so "
        "each keeps its own default, and a local size given only by `local_size_x_id` "
        "defaults to 1: the workgroup runs 1 invocation where the shader counts 128, and "
        "its reductions and strided loops skip most of the data. A warning: the shader "
        "may not depend on the two being equal (only constants its code reads count).",
    bad="layout(constant_id = 0) const uint BLOCK_SIZE = 128;\n"
        "layout(local_size_x_id = 0) in;",
    good="layout(constant_id = 0) const uint BLOCK_SIZE = 128;\n"
         "layout(local_size_x_id = 0, local_size_x = 128) in;",
)


def check_spec_id_defaults(view: AttributeView, shader: Shader) -> Iterator[Diagnostic]:
    """One finding per SpecId whose constants, those the code reads and the local size's,
    default to different values."""
    from ..shader.places import places_for
    from ..spirv import read_module

    reflection = shader.reflection
    if reflection is None or shader.spirv is None:
        return
    module = shader.module or read_module(shader.spirv)[0]
    if module is None:
        return
    by_id: dict[int, list[Constant]] = {}
    for constant in module.constants.values():
        decorated = module.decoration(constant.id, _SPEC_ID) if constant.spec else None
        if decorated and not constant.parts:
            by_id.setdefault(decorated[0], []).append(constant)
    if all(len({c.value for c in group}) < 2 for group in by_id.values()):
        return
    read = _ids_read(shader.words())
    local = reflection.local_size
    for spec_id, constants in sorted(by_id.items()):
        named = sorted({(module.names[c.id], c.value) for c in constants
                        if c.id in module.names and c.id in read}, key=str)
        axis = next((a for a, s in zip("xyz", local.spec_ids, strict=True) if s == spec_id),
                    None) if local is not None else None
        size = local.values["xyz".index(axis)] if local is not None and axis else None
        values = {v for _n, v in named} | ({size} if axis else set())
        if not named or len(values) < 2:
            continue  # (a constant the code never reads cannot disagree with anything)
        described = [f"`{name}` = {value}" for name, value in named]
        if axis:
            described.insert(0, f"the local size {axis} (`local_size_{axis}_id = {spec_id}`) "
                                f"= {size}")
        wanted = named[0][1]
        hint = (f"give the local size the same default: `layout(local_size_{axis}_id = "
                f"{spec_id}, local_size_{axis} = {wanted}) in;`"
                if axis and type(wanted) is int and wanted >= 1 else
                "give the constants the same default, or each a SpecId of its own")
        places = places_for(shader, view.attrs)
        yield SPEC_ID_DEFAULTS_DIFFER.at(
            view.pointer("shader_code"),
            f"SpecId {spec_id} defaults to different values: {', '.join(described)}; the "
            "reference runtime never specializes it, so the shader runs with each "
            "constant's own default, not one value",
            hint=hint, shader_place=places.local_size() if axis else None)


_SPEC_ID = enum_value("Decoration", "SpecId")
# Instruction classes whose operands after the result are not the code's reads: names,
# decorations, modes, types (but an array's length) and literal constants.
_NOT_READS = frozenset(code for code, (_n, cls, _t, _r) in OPS.items()
                       if cls in ("Debug", "Annotation", "Mode-Setting", "Extension",
                                  "Type-Declaration", "Constant-Creation"))
_READS_ALL = frozenset(code for code, (name, *_rest) in OPS.items()
                       if name in ("OpSpecConstantOp", "OpSpecConstantComposite",
                                   "OpConstantComposite", "OpTypeArray"))


def _ids_read(words: Sequence[int]) -> frozenset[int]:
    """The ids that instructions other than names, decorations and declarations take as
    operands (an array's length, a specialization-constant expression, the code). A
    literal operand equal to an id counts too: at worst a constant counts as read."""
    found: set[int] = set()
    for offset, opcode, count in instructions(words):
        if opcode in _NOT_READS and opcode not in _READS_ALL:
            continue
        first = offset + (RESULT_WORD[opcode] or 0) + 1
        found.update(words[first:offset + count])
    return frozenset(found)
