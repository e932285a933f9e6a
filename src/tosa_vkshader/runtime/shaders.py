"""What a run needs from each custom op's shader, which the VGF does not carry.

- the size of its push-constant block (the converter drops ``push_constants``: the run
  must give the bytes and the size, and only to the ops whose shader declares a block);
- the shader stage's record of it (reflection, the index analysis) with the op's
  attributes seen as the rules see them, for what the run proves (``proof.py``) and the
  dispatch a write-check finding suggests (``writecheck.py``);
- HLSL compiled to SPIR-V and embedded in the model (the reference runtime cannot compile
  HLSL), with the same machinery as ``fix --embed spirv``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import RunError
from .rules import HLSL_EMBEDDED, PUSH_CONSTANTS_MISMATCH

if TYPE_CHECKING:
    from ..config import Options
    from ..diagnostics import Diagnostic
    from ..shader import Shader
    from ..spirv.records import PushConstantBlock
    from ..view import AttributeView
    from .interface import Interface
    from .model import ModelOp, RunModel
    from .scenario import PushData


@dataclass(frozen=True, slots=True)
class ShaderOp:
    op: ModelOp
    push_constants: PushConstantBlock | None  # the reflected block, None without one
    shader: Shader | None = None  # None when the shader stage could not build it
    view: AttributeView | None = None  # the attributes, with the op's types

    @property
    def push_constant_size(self) -> int | None:
        return self.push_constants.size if self.push_constants is not None else None


def shader_ops(model: RunModel, options: Options) -> list[ShaderOp]:
    """Every custom op of the model with its shader, taken from the shader stage
    (compiles, verdicts and the index analysis come from its cache)."""
    from ..op_context import OpContext
    from ..shader import build_shaders, request_for
    from ..view import AttributeView

    ops = [op for op in model.ops if op.attrs is not None]
    outcomes = build_shaders([request_for(op.attrs or {}) for op in ops], options)
    found = []
    for op, outcome in zip(ops, outcomes, strict=True):
        shader = outcome.shader if outcome is not None else None
        block = shader.reflection.push_constants if shader is not None and \
            shader.reflection is not None else None
        context = OpContext(operands=op.site.operands, results=op.site.results)
        found.append(ShaderOp(op, block, shader,
                              AttributeView.build(op.attrs or {}, options, context=context)))
    return found


def has_hlsl(model: RunModel) -> bool:
    return any(op.attrs is not None and op.attrs.get("shader_language") == "HLSL"
               for op in model.ops)


def embed_hlsl(model: RunModel, options: Options) -> tuple[str, list[Diagnostic]]:
    """The model's text with each HLSL op's shader compiled and embedded as SPIR-V, as
    ``fix --embed spirv`` does, and a note for each."""
    from ..embed import with_spirv
    from ..sources.escapes import mlir_string

    changes, notes = [], []
    for op in model.ops:
        if op.attrs is None or op.attrs.get("shader_language") != "HLSL":
            continue
        fixed = with_spirv(dict(op.attrs), options)
        if fixed is None:  # cannot happen after a clean check; keep the runtime's verdict
            continue
        changes.append((op, mlir_string(json.dumps(fixed))[1:-1]))
        notes.append(HLSL_EMBEDDED.at(
            "", f"{op.name}: the HLSL shader was compiled by tosa-vkshader and "
                "embedded as SPIR-V before converting (the reference runtime cannot compile "
                "HLSL)", hint="tosa-vkshader fix FILE --embed spirv does the same in the "
                              "model's source"))
    return model.with_attributes(changes), notes


def push_constants_by_name(ops: list[ShaderOp], values: Mapping[str, str]
                           ) -> dict[int, bytes]:
    """Each op's push-constant bytes (the custom op's index -> the bytes of the block its
    shader declares), with the members named in ``values`` (``run --push-constant
    NAME=VALUE``) at their reflected offsets: a name several blocks have sets it in each.
    :class:`RunError` (VKS957) when no op declares a block, a name is in none of them, a
    member is given no value or a value does not fit its member."""
    from .push_values import PushValueError, push_bytes

    blocks = [(op.op.index, op.push_constants) for op in ops if op.push_constants is not None]
    if not blocks:
        raise RunError([PUSH_CONSTANTS_MISMATCH.at(
            "", "--push-constant names values, but no custom op's shader declares a "
                "push-constant block", hint="leave out --push-constant")])
    several = len(blocks) > 1
    known = {m.name for _index, block in blocks for m in block.members}
    unknown = [name for name in values if name not in known]
    if unknown and several:
        raise RunError([PUSH_CONSTANTS_MISMATCH.at(
            "", f"no custom op's push-constant block has a member "
                f"{', '.join(map(repr, unknown))}",
            hint="the blocks' members: " + "; ".join(
                f"custom op {index}: {_members(block)}" for index, block in blocks))])
    found = {}
    for index, block in blocks:
        own = {name: value for name, value in values.items()
               if not several or any(m.name == name for m in block.members)}
        try:
            found[index] = push_bytes(block, own)
        except PushValueError as exc:
            members = ", ".join(f"{m.name} ({m.type}, offset {m.offset})"
                                for m in block.members)
            where = f"custom op {index}: " if several else ""
            raise RunError([PUSH_CONSTANTS_MISMATCH.at(
                "", f"{where}{exc}", hint=f"the block's members: {members}")]) from None
    return found


def push_targets(ops: list[ShaderOp], interface: Interface, data: PushData | None
                 ) -> tuple[tuple[str, int | None], ...]:
    """The compute modules that receive push constants ``data`` (none without data),
    each with the op whose bytes it gets (None: the same bytes for all);
    :class:`RunError` when the ops' blocks and the bytes given do not agree."""
    # (the op's index, its block) of each op that declares a block
    declaring = [(op.op.index, op.push_constants) for op in ops
                 if op.push_constants is not None]
    if data is None:
        if declaring:
            index, block = declaring[0]
            raise RunError([PUSH_CONSTANTS_MISMATCH.at(
                "", f"custom op {index} declares {_article(block.size)} {block.size}-byte "
                    "push-constant block and no --push-constants were given; the converter "
                    "drops push_constants, so the shader would read zeros",
                hint=f"write the {block.size} bytes (little-endian) to a file and "
                     "pass --push-constants FILE, or give the members' values with "
                     "--push-constant NAME=VALUE")])
        return ()
    if not declaring:
        raise RunError([PUSH_CONSTANTS_MISMATCH.at(
            "", f"--push-constants gives {len(data)} bytes, but no custom op's shader "
                "declares a push-constant block", hint="leave out --push-constants")])
    modules = interface.compute_modules
    if not isinstance(data, bytes):  # each op's own bytes, laid out from its block
        if len(modules) != len(ops):
            raise RunError([PUSH_CONSTANTS_MISMATCH.at(
                "", f"the VGF has {len(modules)} compute module(s) for {len(ops)} custom "
                    "op(s): which op each module runs is not known, so each op's "
                    "push constants cannot be given to it")])
        return tuple((modules[index], index) for index, _block in declaring)
    wrong = [(index, block.size) for index, block in declaring if block.size != len(data)]
    if wrong:
        raise RunError([PUSH_CONSTANTS_MISMATCH.at(
            "", f"--push-constants gives {len(data)} bytes; custom op {index}'s push-constant "
                f"block is {size} bytes", hint=f"give exactly {size} bytes")
            for index, size in wrong])
    first_index, first = declaring[0]
    layout = [(m.name, m.offset, m.type) for m in first.members]
    for index, block in declaring[1:]:
        if [(m.name, m.offset, m.type) for m in block.members] != layout:
            raise RunError([PUSH_CONSTANTS_MISMATCH.at(
                "", f"--push-constants gives every op the same {len(data)} bytes, but custom "
                    f"ops {first_index} ({_members(first)}) and {index} ({_members(block)}) "
                    "declare different push-constant blocks",
                hint="give each member's value by name (--push-constant NAME=VALUE): each "
                     "op's block is then laid out from its own members")])
    if len(modules) == len(ops):
        return tuple((modules[index], None) for index, _block in declaring)
    return tuple((module, None) for module in modules)


def _members(block: PushConstantBlock) -> str:
    return ", ".join(f"{m.name} at {m.offset}" for m in block.members)


def _article(number: int) -> str:
    """"a" or "an" before a number said in English (an 8-byte, an 11-byte, an 18-byte)."""
    spoken = str(number)
    return "an" if spoken.startswith("8") or (len(spoken) in (2, 5, 8) and
                                             spoken.startswith(("11", "18"))) else "a"

