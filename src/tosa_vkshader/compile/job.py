"""What the compile batch tracks for each request it compiles, and what a compiler run
gave for it: kept apart from the runners, so that a run whose every shader is in the
cache loads no process machinery."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..records import field, record
from .includes import IncludeResult
from .request import CompileRequest


@record
class Job:
    index: int
    request: CompileRequest
    pre: list[Diagnostic] = field(default_factory=list)
    includes: IncludeResult = field(default_factory=IncludeResult)
    text: str = ""  # what the compiler sees
    blocked: bool = False
    key: str = ""


@record
class Outcome:
    spirv: bytes | None
    diagnostics: list[Diagnostic]
    deterministic: bool = True  # False for crashes, timeouts, floods: never cached
