"""Checking one snapshot of a document, through the one pipeline: an op document as
`check` checks the file (``api.check_text``, the editor's text, the configuration nearest
to the file), a shader file through the ops that carry it (``shaders.py``). Runs on the
server's worker threads, never on its event loop."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from lsprotocol import types

from ..config_file import ConfigError
from ..diagnostics import Location
from .convert import related, to_protocol
from .positions import Lines
from .shaders import check_shader

if TYPE_CHECKING:
    from ..checked import Report
    from ..config import Options
    from ..config_file import ConfigResolver
    from ..diagnostics import Diagnostic
    from .documents import Snapshot
    from .shaders import ShaderUser

# A model or JSON file without any op of ours (VKS506) is not ours: an editor shows
# nothing for it, as for package.json.
NOTHING_CHECKED = "VKS506"


@dataclass(slots=True)
class Checked:
    """What the check of one snapshot found."""

    snapshot: Snapshot
    lines: Lines
    found: list[Diagnostic] = field(default_factory=list)  # the checker's, located here
    published: list[types.Diagnostic] = field(default_factory=list)  # the same, for the client
    report: Report | None = None  # an op document's report


def check_op_document(snapshot: Snapshot, config: ConfigResolver) -> Checked:
    lines = Lines(snapshot.text, snapshot.encoding)
    from ..api import check_text

    try:
        report = check_text(snapshot.text, snapshot.path, config=config)
    except ConfigError as exc:
        return _unusable_config(snapshot, lines, exc)
    if report is None or all(d.code == NOTHING_CHECKED for d in report.diagnostics):
        return Checked(snapshot, lines, report=report)
    published = []
    for diag in report.diagnostics:
        place = report.shader_location(diag) if diag.shader_place is not None else None
        explained: tuple[types.DiagnosticRelatedInformation, ...] = ()
        if place is not None:
            shown = report.shader_line(diag)
            text = f"the shader: {shown[1].strip()}" if shown else "the shader's declaration"
            explained = (related(snapshot.path, lines, place, text),)
        published.append(to_protocol(diag, lines, explained))
    return Checked(snapshot, lines, list(report.diagnostics), published, report)


def check_shader_document(snapshot: Snapshot, users: list[ShaderUser],
                          options_for: Callable[[str], Options],
                          text_of: Callable[[str], str | None]) -> Checked:
    lines = Lines(snapshot.text, snapshot.encoding)
    try:
        findings = check_shader(snapshot.path, snapshot.text, users, options_for, text_of,
                                snapshot.encoding)
    except ConfigError as exc:
        return _unusable_config(snapshot, lines, exc)
    return Checked(snapshot, lines, [f.diagnostic for f in findings],
                   [to_protocol(f.diagnostic, lines, f.related) for f in findings])


def _unusable_config(snapshot: Snapshot, lines: Lines, exc: ConfigError) -> Checked:
    """One diagnostic at the top of the document: its configuration cannot be used (each
    problem at its place in the pyproject.toml, beside)."""
    first = exc.diagnostic
    where = first.location
    message = f"the configuration cannot be used: {where}: {first.message}" if where \
        else f"the configuration cannot be used: {first.message}"
    diag = replace(first, message=message,
                   location=Location(snapshot.path, 1, 1, 1, len(lines.line(0)) + 1))
    explained = []
    for problem in exc.diagnostics:
        if problem.location is not None and problem.location.path:
            config_lines = Lines(_read(problem.location.path), snapshot.encoding)
            explained.append(related(problem.location.path, config_lines, problem.location,
                                     problem.message))
    return Checked(snapshot, lines, [diag], [to_protocol(diag, lines, tuple(explained))])


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return file.read()
    except OSError:
        return ""
