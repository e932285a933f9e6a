"""What a run needs from each custom op's shader, which the VGF does not carry.

- the size of its push-constant block (the converter drops ``push_constants``: the run
  must give the bytes and the size, and only to the ops whose shader declares a block);
- HLSL compiled to SPIR-V and embedded in the model (the reference runtime cannot compile
  HLSL), with the same machinery as ``fix --embed spirv``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..config import Options
from ..diagnostics import Diagnostic
from .errors import RunError
from .interface import Interface
from .model import CustomOpText, custom_op_texts, replace_attrs
from .rules import HLSL_EMBEDDED, PUSH_CONSTANTS_MISMATCH


@dataclass(slots=True)
class ShaderOp:
    text: CustomOpText
    push_constant_size: int | None  # the reflected block, None without one


def shader_ops(text: str, options: Options) -> list[ShaderOp]:
    """Every custom op of the model with its shader's push-constant block size, taken from
    the shader stage's reflection (compiles and verdicts come from its cache)."""
    from ..shader import build_shaders, request_for

    texts = custom_op_texts(text)
    outcomes = build_shaders([request_for(op.attrs) for op in texts], options)
    found = []
    for op, outcome in zip(texts, outcomes, strict=True):
        shader = outcome.shader if outcome is not None else None
        block = shader.reflection.push_constants if shader is not None and \
            shader.reflection is not None else None
        found.append(ShaderOp(op, block.size if block is not None else None))
    return found


def embed_hlsl(text: str, ops: list[ShaderOp], options: Options
                ) -> tuple[str, list[Diagnostic]]:
    hlsl = [(index, op) for index, op in enumerate(ops)
            if op.text.attrs.get("shader_language") == "HLSL"]
    if not hlsl:
        return text, []
    from ..embed import with_spirv
    from ..sources.escapes import mlir_string

    changes, notes = [], []
    for index, op in hlsl:
        fixed = with_spirv(dict(op.text.attrs), options)
        if fixed is None:  # cannot happen after a clean check; keep the runtime's verdict
            continue
        changes.append((op.text, mlir_string(json.dumps(fixed))[1:-1]))
        notes.append(HLSL_EMBEDDED.at(
            "", f"custom op {index}: the HLSL shader was compiled by tosa-vkshader and "
                "embedded as SPIR-V before converting (the reference runtime cannot compile "
                "HLSL)", hint="tosa-vkshader fix FILE --embed spirv does the same in the "
                              "model's source"))
    return (replace_attrs(text, changes) if changes else text), notes


def push_targets(ops: list[ShaderOp], interface: Interface,
                 data: bytes | None) -> tuple[str, ...]:
    """The compute modules that receive the push-constant bytes ``data`` (none without
    data); :class:`RunError` when the ops' blocks and the bytes given do not agree."""
    declaring = [(index, op) for index, op in enumerate(ops)
                 if op.push_constant_size is not None]
    if data is None:
        if declaring:
            index, op = declaring[0]
            raise RunError([PUSH_CONSTANTS_MISMATCH.at(
                "", f"custom op {index} declares a {op.push_constant_size}-byte push-constant "
                    "block and no --push-constants were given; the converter drops "
                    "push_constants, so the shader would read zeros",
                hint=f"write the {op.push_constant_size} bytes (little-endian) to a file and "
                     "pass --push-constants FILE")])
        return ()
    if not declaring:
        raise RunError([PUSH_CONSTANTS_MISMATCH.at(
            "", f"--push-constants gives {len(data)} bytes, but no custom op's shader "
                "declares a push-constant block", hint="leave out --push-constants")])
    wrong = [(i, op) for i, op in declaring if op.push_constant_size != len(data)]
    if wrong:
        raise RunError([PUSH_CONSTANTS_MISMATCH.at(
            "", f"--push-constants gives {len(data)} bytes; custom op {i}'s push-constant "
                f"block is {op.push_constant_size} bytes",
            hint=f"give exactly {op.push_constant_size} bytes") for i, op in wrong])
    modules = interface.compute_modules
    if len(modules) == len(ops):
        return tuple(modules[i] for i, _op in declaring)
    return modules

