"""What callers hand to the backend and what they get back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from ..diagnostics import Diagnostic
from .options import Macro, normalize_macros

if TYPE_CHECKING:
    from .compiler import CompilerInfo

Language = Literal["GLSL", "HLSL"]
LANGUAGES: tuple[Language, ...] = ("GLSL", "HLSL")
# The language a shader file's suffix names (what `compile` and `reflect` read).
SHADER_SUFFIXES: dict[str, Language] = {".comp": "GLSL", ".glsl": "GLSL", ".hlsl": "HLSL"}


@dataclass(frozen=True, slots=True)
class CompileRequest:
    """One shader to compile.

    ``code_pointer`` is the JSON pointer of the ``shader_code`` value (diagnostics inside
    the shader carry it plus a line/column in ``source``); ``entry_pointer`` that of
    ``entry_point`` (default: the sibling ``entry_point`` key of ``code_pointer``).
    """

    source: str
    language: Language
    entry_point: str = "main"
    code_pointer: str = "/shader_code"
    entry_pointer: str | None = None
    macros: tuple[Macro, ...] = ()  # in addition to the configured ones

    def __post_init__(self) -> None:
        if self.language not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}, not {self.language!r}")
        object.__setattr__(self, "macros", normalize_macros(self.macros))
        if self.entry_pointer is None:
            parent = self.code_pointer.rsplit("/", 1)[0] if "/" in self.code_pointer else ""
            object.__setattr__(self, "entry_pointer", parent + "/entry_point")

    @property
    def effective_entry_point(self) -> str:
        return self.entry_point or "main"


@dataclass(slots=True)
class CompileResult:
    spirv: bytes | None  # None when the shader did not compile or any error was found
    diagnostics: list[Diagnostic] = field(default_factory=list)
    cached: bool = False  # True when the result came from the cache
    # Whether the source states its workgroup size (GLSL local_size_*, HLSL [numthreads]);
    # the spec's own GLSL example does not, and then compiles to a local size of 1x1x1.
    declares_local_size: bool = True
    compiler: CompilerInfo | None = None  # the compiler that produced ``spirv``

    @property
    def ok(self) -> bool:
        return self.spirv is not None
