"""What the compile batch tracks for each request it compiles, and what a compiler run
gave for it: kept apart from the runners, so that a run whose every shader is in the
cache loads no process machinery."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic
from .includes import IncludeResult
from .request import CompileRequest


@dataclass(slots=True)
class Job:
    index: int
    request: CompileRequest
    pre: list[Diagnostic] = field(default_factory=list)
    includes: IncludeResult = field(default_factory=IncludeResult)
    text: str = ""  # what the compiler sees
    blocked: bool = False
    key: str = ""


@dataclass(slots=True)
class Outcome:
    spirv: bytes | None
    diagnostics: list[Diagnostic]
    deterministic: bool = True  # False for crashes, timeouts, floods: never cached
