"""The checker's diagnostics as the protocol's: ranges in the client's position encoding,
severity, the rule's code, the hint, and the places elsewhere that explain a finding (the
shader declaration it names, the op key a shader finding comes from)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import from_fs_path

from ..diagnostics import Severity

if TYPE_CHECKING:
    from ..diagnostics import Diagnostic, Location
    from .positions import Lines

SOURCE = "tosa-vkshader"
_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error,
             Severity.WARNING: types.DiagnosticSeverity.Warning,
             Severity.INFO: types.DiagnosticSeverity.Information}


def uri_of(path: str) -> str:
    return from_fs_path(path) or path


def to_protocol(diag: Diagnostic, lines: Lines,
                related: tuple[types.DiagnosticRelatedInformation, ...] = ()
                ) -> types.Diagnostic:
    """One diagnostic, located (``diag.location``) in the document ``lines`` holds."""
    location = diag.location
    assert location is not None  # (every reported diagnostic is located)
    message = diag.message if not diag.hint else f"{diag.message}\nhelp: {diag.hint}"
    return types.Diagnostic(
        range=lines.range(location), message=message, severity=_SEVERITY[diag.severity],
        code=diag.code, source=SOURCE, related_information=list(related) or None)


def related(path: str, lines: Lines, location: Location, message: str,
            ) -> types.DiagnosticRelatedInformation:
    """A place (in the file whose text ``lines`` holds) that explains a finding."""
    return types.DiagnosticRelatedInformation(
        types.Location(uri_of(path), lines.range(location)), message)
