"""The model's check, as the runtime sees it: done once per prepared model, when first
asked for (for a single run, while the scenario runner works).

``workgroup_sizes`` is read as a dispatch count; problems with attributes the runtime
never reads are warnings; what the run takes care of itself is a note. The check decides
whether results are given: a model with errors never produces any, and its diagnostics
are reported before any other failure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..diagnostics import Severity
from .errors import RunError

if TYPE_CHECKING:
    from ..api import Report
    from ..config import Options
    from ..diagnostics import Diagnostic

    # the options, or a function that loads them (a configuration file is read only once
    # the converter has started)
    OptionsSource = Options | Callable[[], Options] | None

# What the reference converter never reads: `push_constants` is dropped from the VGF, and
# the run checks the bytes it is given against the shader's block instead (VKS957).
_NOT_READ_BY_THE_RUNTIME = ("VKS422", "VKS423")
# What the run itself takes care of: it gives the runner the push-constant size and bytes
# that the VGF lacks, so the warning that the shader would read zeros does not apply.
_HANDLED_BY_THE_RUN = ("VKS250",)


def runtime_reading(options: Options) -> Options:
    """The check as the runtime sees the model: ``workgroup_sizes`` is a dispatch count,
    problems with attributes the runtime ignores are warnings, and what the run handles
    itself is a note (unless configured)."""
    severity = {code: Severity.WARNING for code in _NOT_READ_BY_THE_RUNTIME}
    severity.update({code: Severity.INFO for code in _HANDLED_BY_THE_RUN})
    return options.with_overrides(workgroup_semantics="dispatch",
                                  severity={**severity, **options.severity})


class Verdict:
    """The check of one model text, done once, when first asked for."""

    def __init__(self, text: str, path: str | None, options: OptionsSource) -> None:
        self._text, self._path, self._source = text, path, options
        self._options: Options | None = None
        self._report: Report | None = None
        self._error: RunError | None = None

    @property
    def options(self) -> Options:
        """The options of the run (as :func:`runtime_reading` makes them); RunError with
        the configuration's diagnostics when it cannot be read (exit 2)."""
        if self._options is None:
            from ..config import Options
            from ..config_file import ConfigError

            try:
                loaded = self._source() if callable(self._source) else self._source
            except ConfigError as exc:
                raise RunError(exc.diagnostics) from exc
            self._options = runtime_reading(loaded or Options())
        return self._options

    def report(self) -> Report:
        """The check's report (its warnings and the source they are located in);
        :class:`RunError` with every diagnostic when the model has errors (the same one
        each time: the check is not run again)."""
        if self._error is not None:
            raise self._error
        if self._report is None:
            from ..api import validate

            path = self._path if self._path and self._path.endswith(".mlir") else "model.mlir"
            report = validate(self._text, self.options, path=path)
            if not report.ok:
                self._error = RunError(report.diagnostics, source=report.source)
                raise self._error
            self._report = report
        return self._report

    def notes(self) -> list[Diagnostic]:
        """The check's warnings (its notes, how workgroup_sizes is read..., are for
        `check`)."""
        return [d for d in self.report().diagnostics if d.severity is not Severity.INFO]
