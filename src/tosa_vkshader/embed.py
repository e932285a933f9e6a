"""GLSL/HLSL ``shader_code`` replaced by the SPIR-V it compiles to: what `fix --embed
spirv` writes into a file, and what `run` hands the converter for HLSL (which the
reference runtime cannot compile). The modules come from the shader stage, as every other
use of an op's shader does."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .config import Options
from .diagnostics import Diagnostic

SOURCE_LANGUAGES = ("GLSL", "HLSL")


@dataclass(frozen=True, slots=True)
class Compiled:
    """An op's GLSL/HLSL shader, built: its SPIR-V (None when it does not compile) and
    what the shader stage said, at the op's ``shader_code``."""

    language: str
    code_pointer: str
    spirv: bytes | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def shader_code(self) -> str:
        """The SPIR-V as ``shader_code`` holds it (base64)."""
        assert self.spirv is not None
        return base64.b64encode(self.spirv).decode("ascii")


def compiled(ops: Sequence[dict[str, Any]], options: Options) -> list[Compiled | None]:
    """For each op's attributes: its GLSL/HLSL shader built (all in one run of the shader
    stage), or None when it has none."""
    from .shader import build_shaders, request_for

    requests = [request_for(attrs) if attrs.get("shader_language") in SOURCE_LANGUAGES
                else None for attrs in ops]
    if not any(requests):
        return [None] * len(ops)
    found: list[Compiled | None] = []
    for request, outcome in zip(requests, build_shaders(requests, options), strict=True):
        if request is None or outcome is None:
            found.append(None)
            continue
        spirv = outcome.shader.spirv if outcome.shader is not None else None
        found.append(Compiled(request.language, request.code_pointer, spirv,
                              [] if spirv is not None else list(outcome.diagnostics)))
    return found


def with_spirv(attrs: dict[str, Any], options: Options) -> dict[str, Any] | None:
    """A copy of ``attrs`` with its GLSL/HLSL shader replaced by the SPIR-V it compiles to
    (the same object when it has none), or None when it does not compile."""
    [built] = compiled([attrs], options)
    if built is None:
        return attrs
    if built.spirv is None:
        return None
    return {**attrs, "shader_language": "SPIR-V", "shader_code": built.shader_code}
