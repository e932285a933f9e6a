"""Compile the shaders of many op-like objects in one go (for scripts and benchmarks).

The checking pipeline does not come through here: it asks the shader stage
(``tosa_vkshader.shader``), which calls :func:`~.batch.compile_many` once per run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..diagnostics import pointer_join
from .batch import compile_many
from .options import CompileOptions
from .request import LANGUAGES, CompileRequest, CompileResult

if TYPE_CHECKING:
    from typing import Any


def request_for(attributes: Any, base: str = "") -> CompileRequest | None:
    """The compile request for one attribute object, or None if it has no GLSL/HLSL."""
    if not isinstance(attributes, dict):
        return None
    language, code = attributes.get("shader_language"), attributes.get("shader_code")
    if language not in LANGUAGES or not isinstance(code, str) or not code:
        return None
    entry = attributes.get("entry_point")
    return CompileRequest(code, language, entry if isinstance(entry, str) else "main",
                          code_pointer=pointer_join(base, "shader_code"),
                          entry_pointer=pointer_join(base, "entry_point"))


def compile_ops(ops: Sequence[Any], options: CompileOptions | Any | None = None
                ) -> list[CompileResult | None]:
    """One result per op (``attributes`` and ``base`` attributes, like ``sources.base.Op``);
    None for ops without GLSL/HLSL shader code. Diagnostics carry the op's pointers."""
    requests = [request_for(op.attributes, op.base) for op in ops]
    wanted = [r for r in requests if r is not None]
    results = iter(compile_many(wanted, options))
    return [next(results) if r is not None else None for r in requests]
