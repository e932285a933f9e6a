"""The exception of the code generation API (kept apart so that every codegen module can
raise it without importing the op builder)."""

from __future__ import annotations

from collections.abc import Sequence

from ..diagnostics import Diagnostic, Severity


class CodegenError(ValueError):
    """Raised by the Python API when an op cannot be built or rendered; ``diagnostics``
    says why (the same diagnostics the command line prints)."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        errors = [d for d in self.diagnostics if d.severity is Severity.ERROR]
        first = errors[0] if errors else (self.diagnostics[0] if self.diagnostics else None)
        summary = f"{first.code}: {first.message}" if first else "code generation failed"
        more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
        super().__init__(summary + more)
