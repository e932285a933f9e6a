"""Read glslc's output: split it into messages and find the file each belongs to.

glslc prints one line per message, ``FILE:LINE: error: 'TOKEN' : text`` (glslang 11 gives
no column; newer builds may print ``FILE:LINE:COL:``), HLSL parse failures as
``FILE: FILE(LINE): error at column COL, ...``, messages about a whole file as
``FILE: error: ...``, and a few without any file (``shaderc: internal error: ...``,
``glslc: error: ...``), sometimes followed by indented detail lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_WITH_LINE = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<sev>error|warning): (?P<text>.*)$")
_HLSL_COLUMN = re.compile(
    r"^(?P<file>[^:]+): (?P=file)\((?P<line>\d+)\): (?P<sev>error|warning) at column "
    r"(?P<col>\d+), (?P<text>.*)$")
_FILE_ONLY = re.compile(r"^(?P<file>[^:]+): (?P<sev>error|warning): (?P<text>.*)$")
_SUMMARY = re.compile(r"^\d+ (?:errors?|warnings?)(?: and \d+ (?:errors?|warnings?))? generated\.$")
_NO_FILE = re.compile(r"^(?P<who>shaderc|glslc): (?:internal )?(?P<sev>error|warning): "
                      r"(?P<text>.*)$")
_MAX_DETAIL = 8


@dataclass(slots=True)
class CompilerMessage:
    file: str | None  # as printed; None when the compiler named no file
    line: int | None
    column: int | None
    severity: str  # "error" | "warning"
    text: str
    detail: list[str] = field(default_factory=list)
    tool: str | None = None  # "glslc" for the driver's own errors, "shaderc" for internal ones

    @property
    def full_text(self) -> str:
        extra = "; ".join(d for d in self.detail if d)
        return f"{self.text} ({extra})" if extra else self.text


def parse_output(output: str) -> list[CompilerMessage]:
    messages: list[CompilerMessage] = []
    for raw in output.splitlines():
        line = raw.rstrip()
        if not line:
            continue
        if _SUMMARY.match(line):
            continue
        match = _HLSL_COLUMN.match(line) or _WITH_LINE.match(line)
        if match:
            messages.append(CompilerMessage(
                match.group("file"), int(match.group("line")),
                int(match.group("col")) if match.group("col") else None,
                match.group("sev"), match.group("text").strip()))
            continue
        match = _NO_FILE.match(line)
        if match:
            messages.append(CompilerMessage(None, None, None, match.group("sev"),
                                            match.group("text").strip(),
                                            tool=match.group("who")))
            continue
        match = _FILE_ONLY.match(line)
        if match:
            messages.append(CompilerMessage(match.group("file"), None, None,
                                            match.group("sev"), match.group("text").strip()))
            continue
        if messages and (raw[:1].isspace() or messages[-1].file is None):
            if len(messages[-1].detail) < _MAX_DETAIL:
                messages[-1].detail.append(line.strip())
            continue
        # Output we do not recognise (e.g. a dump of built-in declarations).
        messages.append(CompilerMessage(None, None, None, "error", line.strip()[:300]))
    return messages
