"""The one exception `run` raises: :class:`RunError`, carrying the diagnostics.

The modules a run needs before it starts the converter import this one; it imports the
diagnostics only when an error is made (they cost 15 ms, and a run that goes well makes
none before the scenario runner works)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from ..diagnostics import Diagnostic
    from ..sources.base import SourceFile

# Problems with the machine or with what the user handed over (not with the model):
# the command line exits 2 for them, as for any usage or environment problem.
ENVIRONMENT_CODES = frozenset({"VKS950", "VKS951", "VKS952", "VKS953", "VKS957", "VKS965",
                               "VKS900", "VKS901"})


class RunError(Exception):
    """The model could not be run, or did not check, or the runtime is missing.

    ``diagnostics`` says why (stable codes, messages naming the key or argument, hints
    with the install command where something is missing); ``exit_code`` is what the
    command line exits with: 2 for the environment and the inputs, 1 for the model.
    ``source`` is the model as the check read it, when the diagnostics are the check's
    (reporters show their lines from it); ``details``, the lines a failing tool printed
    (the diagnostic names the first); ``workdir``, the work directory when it was kept.
    """

    def __init__(self, diagnostics: list[Diagnostic], *, source: SourceFile | None = None,
                 details: tuple[str, ...] = ()) -> None:
        from ..diagnostics import Severity

        errors = [d for d in diagnostics if d.severity is Severity.ERROR] or diagnostics
        super().__init__("; ".join(f"{d.code} {d.message}" for d in errors[:3]))
        self.diagnostics = list(diagnostics)
        self.source = source
        self.details = details
        self.workdir: Path | None = None

    @property
    def exit_code(self) -> int:
        from ..diagnostics import Severity

        errors = [d for d in self.diagnostics if d.severity is Severity.ERROR]
        if errors and all(d.code in ENVIRONMENT_CODES for d in errors):
            return 2
        return 1
