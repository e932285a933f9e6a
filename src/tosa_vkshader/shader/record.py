"""What the shader stage takes and gives: plain records, no behaviour.

A :class:`ShaderRequest` is an op's shader fields (language, code, entry point) and the
JSON pointers its diagnostics go to. A :class:`Shader` is one SPIR-V module as the rest of
the tool sees it: its bytes and words, which compiler produced it, what spirv-val and the
reader found, and its reflection. One ``Shader`` is built per distinct module and entry
point in a run and shared by every op that carries it. A :class:`ShaderOutcome` is what
one op gets back: the shared ``Shader`` (or None) and the diagnostics placed at that op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, Severity
from ..spirv.words import module_words

if TYPE_CHECKING:
    from typing import Literal

    from ..compile.compiler import CompilerInfo
    from ..spirv.analysis import ShaderAccess
    from ..spirv.module import Module
    from ..spirv.records import Reflection

    Language = Literal["SPIR-V", "GLSL", "HLSL"]
LANGUAGES: tuple[Language, ...] = ("SPIR-V", "GLSL", "HLSL")


@dataclass(frozen=True, slots=True)
class ShaderRequest:
    """One op's shader fields, read from its attributes.

    ``code`` is the ``shader_code`` text (base64 for SPIR-V, source for GLSL/HLSL);
    ``entry_point`` is the attribute's value, or None when it is absent or not a string.
    ``code_pointer``/``entry_pointer`` are where this op's diagnostics point.
    """

    language: Language
    code: str
    entry_point: str | None = "main"
    code_pointer: str = "/shader_code"
    entry_pointer: str = "/entry_point"


@dataclass(frozen=True, eq=False, slots=True)
class Shader:
    """One SPIR-V module, analysed once per run, whichever ops carry it.

    ``findings`` are what the SPIR-V reader and spirv-val say about the module itself,
    with an empty pointer (each op's :class:`ShaderOutcome` places them at its own
    ``shader_code``). ``reflection`` is None when the module cannot be read far enough to
    reflect (the findings say why); the rules that compare attributes with the shader run
    only when it is there.
    """

    spirv: bytes
    language: Language  # what the op's shader was written in
    entry_point: str | None  # the entry point reflected (None: the module's only one)
    compiler: CompilerInfo | None  # the compiler that produced ``spirv``; None if embedded
    validator: str | None  # path of the spirv-val that validated it; None if not run
    findings: tuple[Diagnostic, ...] = ()
    reflection: Reflection | None = None
    # What the reader made of the module (kept for the findings that name an instruction
    # or measure shared memory); None when it could not be read.
    module: Module | None = field(default=None, repr=False)
    # What the entry point reads and writes, in terms of its invocations (the index
    # analysis, spirv/analysis); None when the module has errors or was not reflected.
    access: ShaderAccess | None = field(default=None, repr=False)

    def words(self) -> Sequence[int]:
        """The module as 32-bit words in the machine's byte order (made on each call:
        few rules need them)."""
        return module_words(self.spirv)

    @property
    def ok(self) -> bool:
        """Readable and without errors from the reader or spirv-val."""
        return self.reflection is not None and not any(
            d.severity is Severity.ERROR for d in self.findings)


@dataclass(slots=True)
class ShaderOutcome:
    """What the shader stage says about one op."""

    shader: Shader | None  # None when no module could be produced
    diagnostics: list[Diagnostic] = field(default_factory=list)  # placed at this op
