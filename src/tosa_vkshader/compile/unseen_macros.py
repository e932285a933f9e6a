"""Macros of the configuration that the reference runtime never sees (VKS310).

``macros`` of ``[tool.tosa-vkshader]`` are compiler flags for the checker's own compile.
The reference runtime compiles an op's GLSL ``shader_code`` itself, without flags
(measured on lavapipe: a shader that needs the macro fails there with "Compilation
error"). When a shader uses a configured macro, the shader is compiled a second time
without the macros, as the runtime compiles it, and the difference is the finding: an
error when that compile fails, a warning when it gives another module.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..diagnostics import Diagnostic, Severity
from ..rule_registry import rule
from .options import CompileOptions, describe_macros
from .request import CompileRequest, CompileResult
from .scan import cleaned

MACRO_NOT_IN_RUNTIME = rule(
    "VKS310",
    summary="The shader uses a macro of `[tool.tosa-vkshader] macros`, which the reference "
            "runtime does not define when it compiles `shader_code`.",
    why="The checker compiles GLSL with the configured macros, but the runtime compiles "
        "the embedded text with no compiler flags: measured on lavapipe, a shader that "
        "needs the macro fails there (\"Compilation error\") although `check` was clean. "
        "An error when the shader does not compile without the macro; a warning when it "
        "compiles to another module (an `#ifdef` or a fallback `#define` takes over), "
        "since what runs is then not what was checked.",
    bad='[tool.tosa-vkshader]\nmacros = { T = "float" }   # shader_code: buffer B { T b[]; }',
    good='"shader_code": "#version 460\\n#define T float\\n..."   '
         '// tosa-vkshader new shader.comp -D T=float writes this',
)


def uses(source: str, names: Sequence[str]) -> list[str]:
    """The macro names that occur in ``source`` as identifiers (outside comments)."""
    text = cleaned(source).text
    return [name for name in names if re.search(rf"\b{re.escape(name)}\b", text)]


def unseen_macros(requests: Sequence[CompileRequest], results: Sequence[CompileResult],
                  opts: CompileOptions) -> list[list[Diagnostic]]:
    """For each compiled GLSL request that uses a configured macro, VKS310 when compiling
    it without the configured macros (as the runtime does) fails or gives other SPIR-V."""
    from .batch import compile_many

    found: list[list[Diagnostic]] = [[] for _ in requests]
    names = [name for name, _value in opts.macros]
    if not names:
        return found
    used = {k: uses(request.source, names) for k, request in enumerate(requests)
            if request.language == "GLSL" and results[k].spirv is not None}
    used = {k: named for k, named in used.items() if named}
    if not used:
        return found
    bare = compile_many([requests[k] for k in used], replace(opts, macros=()))
    for k, alone in zip(used, bare, strict=True):
        macros = describe_macros([m for m in opts.macros if m[0] in used[k]])
        pointer = requests[k].code_pointer
        if alone.spirv is None:
            first = next((d for d in alone.diagnostics if d.severity is Severity.ERROR), None)
            why = f": {first.message}" if first is not None else ""
            found[k].append(MACRO_NOT_IN_RUNTIME.at(
                pointer, f"the shader uses {macros} from `macros` of [tool.tosa-vkshader], "
                "but the reference runtime compiles shader_code without them and then it "
                f"fails{why}",
                inner=first.inner if first is not None else None,
                hint=_HINT))
        elif alone.spirv != results[k].spirv:
            found[k].append(MACRO_NOT_IN_RUNTIME.at(
                pointer, f"the shader uses {macros} from `macros` of [tool.tosa-vkshader], "
                "but the reference runtime compiles shader_code without them, to another "
                "module than the one checked", severity=Severity.WARNING, hint=_HINT))
    return found


_HINT = ("put the definitions into shader_code (`#define NAME VALUE` after #version; "
         "`tosa-vkshader new SHADER -D NAME=VALUE` writes them), or embed SPIR-V")
