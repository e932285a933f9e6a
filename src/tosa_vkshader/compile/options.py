"""Settings of the compile backend.

Until the core ``Options`` carries these fields, :meth:`CompileOptions.from_options`
reads them with ``getattr`` and falls back to the defaults, so merging is a no-op.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..cachedir import DEFAULT_CACHE_MAX_BYTES
from ..diagnostics import Diagnostic, Severity
from ..rule_registry import rule

if TYPE_CHECKING:
    from typing import Any

DEFAULT_TARGET_ENV = "vulkan1.3"  # the reference runtime: Vulkan 1.3, SPIR-V 1.6
DEFAULT_GLSL_VERSION = 460  # the reference runtime's default `#version`
DEFAULT_TIMEOUT = 8.0
# Address space per compiler process: far above what glslc needs for a real shader
# (tens of MiB), far below what a preprocessor bomb reaches (8.5 GB in 30 s).
DEFAULT_MEMORY_LIMIT = 2 * 1024 ** 3

Macro = tuple[str, str | None]
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

COMPILE_CONFIG = rule(
    "VKS915",
    summary="A compile setting (macro, include directory, target) is unusable.",
    why="Compiling with a setting silently dropped would check a different shader than "
        "the one that ships; a macro value with a line break could inject directives.",
    bad='[tool.tosa-vkshader]\nmacros = { "1X" = "a\\n#include \\"/etc/passwd\\"" }',
    good='[tool.tosa-vkshader]\nmacros = { USE_FP16 = "1" }',
)


def normalize_macros(value: Any) -> tuple[Macro, ...]:
    """Accept ``{"NAME": "VALUE"}``, ``["NAME=VALUE", "NAME"]`` or pairs; keep order."""
    if value is None:
        return ()
    if isinstance(value, Mapping):
        items: Iterable[Any] = value.items()
    elif isinstance(value, str):
        items = [value]
    else:
        items = value
    macros: list[Macro] = []
    for item in items:
        if isinstance(item, str):
            name, sep, val = item.partition("=")
            macros.append((name, val if sep else None))
        else:
            name, val = item
            macros.append((str(name), None if val is None else str(val)))
    return tuple(macros)


@dataclass(frozen=True, slots=True)
class CompileOptions:
    glslc: str | None = None  # explicit compiler path; else PATH, then $VULKAN_SDK/bin
    target_env: str = DEFAULT_TARGET_ENV
    target_spv: str | None = None  # None: glslc's default for target_env (1.3 -> spv1.6)
    macros: tuple[Macro, ...] = ()
    include_dirs: tuple[str, ...] = ()
    allow_includes: bool = False
    hlsl_16bit_types: bool = True  # the reference compiles HLSL with 16-bit types
    cache: bool = True
    cache_dir: str | None = None  # None: $TOSA_VKSHADER_CACHE_DIR, else the user cache dir
    cache_max_bytes: int = DEFAULT_CACHE_MAX_BYTES
    timeout: float = DEFAULT_TIMEOUT  # seconds per compiler process
    memory_limit: int = DEFAULT_MEMORY_LIMIT  # bytes of address space per compiler process
    output_limit: int = 256 * 1024  # bytes of compiler output allowed per source

    @classmethod
    def from_options(cls, options: Any, **overrides: Any) -> CompileOptions:
        """Build from the core ``Options`` (``[tool.tosa-vkshader]``)."""
        made = cls(
            glslc=options.glslc or None,
            target_env=options.target_env or DEFAULT_TARGET_ENV,
            macros=normalize_macros(options.macros),
            include_dirs=tuple(str(d) for d in options.include_dirs),
            allow_includes=options.allow_includes,
            cache=options.cache,
            timeout=options.compile_timeout,
            memory_limit=getattr(options, "compile_memory_limit", DEFAULT_MEMORY_LIMIT),
        )
        return replace(made, **overrides) if overrides else made


def describe_macros(macros: Sequence[Macro]) -> str:
    """```NAME=VALUE`, `FLAG``` for messages."""
    return ", ".join(f"`{name}={value}`" if value else f"`{name}`" for name, value in macros)


# -- checking the settings ---------------------------------------------------------------

def macro_problems(macros: Sequence[Macro], pointer: str) -> list[Diagnostic]:
    problems = []
    for name, value in macros:
        if not _IDENTIFIER.fullmatch(name):
            problems.append(COMPILE_CONFIG.at(pointer, f"macro name {name!r} is not an "
                                                       "identifier"))
        elif value is not None and (any(c in value for c in "\r\n\0")
                                    or value.endswith("\\")):
            # glslc writes `#define NAME VALUE` lines: a line break would start a directive.
            problems.append(COMPILE_CONFIG.at(pointer, f"the value of macro `{name}` contains "
                                                       "a line break, a NUL or a final `\\`",
                                              hint="macro values must be one line"))
    return problems


def include_roots(opts: CompileOptions, pointer: str) -> tuple[list[str], list[Diagnostic]]:
    roots: list[str] = []
    problems: list[Diagnostic] = []
    if not opts.allow_includes:
        return roots, problems
    for folder in opts.include_dirs:
        real = os.path.realpath(folder)
        if os.path.isdir(real):
            roots.append(real)
        else:
            # Only shaders that include something can suffer; they get VKS304 themselves.
            problems.append(COMPILE_CONFIG.at(pointer, f"include directory `{folder}` does "
                                                       "not exist", severity=Severity.WARNING))
    return roots, problems
