"""Getting a shader's SPIR-V: read a .spv, or compile GLSL/HLSL with the compile stage."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..compile import CompileOptions, CompileRequest, compile_many
from ..config import Options
from ..diagnostics import Diagnostic, Location
from ..fsutil import read_limited
from .codegen_rules import SHADER_UNREADABLE

Language = Literal["GLSL", "HLSL", "SPIR-V"]
SUFFIXES: dict[str, Language] = {".comp": "GLSL", ".glsl": "GLSL", ".hlsl": "HLSL",
                                 ".spv": "SPIR-V"}
# `[numthreads(8, 8, 1)] void CSMain(` -> CSMain (attributes may sit in between).
_HLSL_ENTRY = re.compile(r"\[\s*numthreads\s*\([^)]*\)\s*\]\s*(?:\[[^\]]*\]\s*)*"
                         r"void\s+([A-Za-z_]\w*)\s*\(")


@dataclass(slots=True)
class Shader:
    """A shader as given: its language, its text (GLSL/HLSL) and, once compiled, SPIR-V."""

    language: Language
    path: str | None = None
    source: str | None = None
    spirv: bytes | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def hlsl_entry_point(source: str) -> str | None:
    """The one function marked ``[numthreads]``, when there is exactly one."""
    names = {m.group(1) for m in _HLSL_ENTRY.finditer(source)}
    return names.pop() if len(names) == 1 else None


def read_shader(path: str | os.PathLike[str], language: Language | None = None) -> Shader:
    """Read a shader file; its language comes from ``language`` or its suffix."""
    name = os.fspath(path)
    where = Location(name, 1, 1)
    lang = language or SUFFIXES.get(Path(name).suffix.lower())
    if lang is None:
        shader = Shader("SPIR-V", name)
        shader.diagnostics.append(SHADER_UNREADABLE.at(
            "", f"{name}: cannot tell the shader language from the suffix "
                f"`{Path(name).suffix}`",
            hint="use .comp/.glsl (GLSL), .hlsl (HLSL) or .spv (SPIR-V)").located(where))
        return shader
    try:
        data = read_limited(name)
    except OSError as exc:
        shader = Shader(lang, name)
        shader.diagnostics.append(SHADER_UNREADABLE.at(
            "", f"cannot read {name}: {exc.strerror or exc}").located(where))
        return shader
    if lang == "SPIR-V":
        return Shader(lang, name, spirv=data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        shader = Shader(lang, name)
        shader.diagnostics.append(SHADER_UNREADABLE.at(
            "", f"{name} is not UTF-8 text: {exc.reason} at byte {exc.start}").located(where))
        return shader
    return Shader(lang, name, source=text)


def compile_shader(shader: Shader, entry_point: str, options: Options) -> None:
    """Fill ``shader.spirv`` from its source; compile diagnostics are placed in its file."""
    if shader.spirv is not None or shader.source is None or shader.language == "SPIR-V":
        return
    request = CompileRequest(shader.source, shader.language, entry_point=entry_point)
    result = compile_many([request], CompileOptions.from_options(options))[0]
    for diagnostic in result.diagnostics:
        inner = diagnostic.inner
        where = Location(shader.path, inner.line, inner.column) if inner else \
            Location(shader.path, 1, 1)
        shader.diagnostics.append(diagnostic.located(where))
    shader.spirv = result.spirv
