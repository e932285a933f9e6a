"""Our side of the comparison, and the comparison itself.

``our_verdicts`` runs ``tosa_vkshader.check_paths`` on every case's module (one batch, so
shaders compile once); ``compare`` sorts each case into agreement, *looser* (the
converter rejects or writes a broken VGF and we report no error: always a bug) or
*stricter* (we report an error, the converter accepts: allowed only when the reviewed
table ``stricter.md`` lists the case with its reason).
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cases import Case
from oracle import Verdict

TABLE = Path(__file__).with_name("stricter.md")
REASONS = ("spec", "runtime", "bug")


@dataclass(frozen=True)
class Ours:
    errors: tuple[str, ...]  # error codes, sorted

    @property
    def ok(self) -> bool:
        return not self.errors


def our_verdicts(cases: list[Case]) -> dict[str, Ours]:
    import tosa_vkshader

    with tempfile.TemporaryDirectory(prefix="differential-ours-") as tmp:
        paths = []
        for index, case in enumerate(cases):
            path = Path(tmp) / f"{index}.mlir"
            path.write_text(case.mlir(), encoding="utf-8")
            paths.append(path)
        reports = tosa_vkshader.check_paths(paths, tosa_vkshader.Options())
    return {case.id: Ours(tuple(sorted({d.code for d in report.errors})))
            for case, report in zip(cases, reports, strict=True)}


@dataclass(frozen=True)
class Entry:
    case: str
    codes: tuple[str, ...]
    reason: str
    why: str


def read_table(path: Path = TABLE) -> dict[str, Entry]:
    """The reviewed table: one markdown row per case where we are stricter."""
    entries = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("| ") or len(cells) != 4 or cells[0] in ("case", "") \
                or set(cells[0]) <= {"-", ":"}:
            continue
        case, codes, reason, why = cells
        case = case.strip("`")
        entries[case] = Entry(case, tuple(re.findall(r"VKS\d{3}", codes)), reason, why)
    return entries


@dataclass
class Outcome:
    agree: list[str]
    looser: list[tuple[str, Verdict]]
    stricter_listed: list[str]
    stricter_unlisted: list[tuple[str, Ours]]
    listed_not_stricter: list[str]  # table rows whose case now agrees (stale rows)
    codes_changed: list[tuple[str, tuple[str, ...], tuple[str, ...]]]

    @property
    def problems(self) -> bool:
        return bool(self.looser or self.stricter_unlisted or self.listed_not_stricter
                    or self.codes_changed)


def compare(cases: list[Case], reference: dict[str, Verdict], ours: dict[str, Ours],
            table: dict[str, Entry]) -> Outcome:
    outcome = Outcome([], [], [], [], [], [])
    for case in cases:
        ref, us = reference[case.id], ours[case.id]
        if not ref.ok and us.ok:
            outcome.looser.append((case.id, ref))
        elif ref.ok and not us.ok:
            if case.id in table:
                outcome.stricter_listed.append(case.id)
                if table[case.id].codes != us.errors:
                    outcome.codes_changed.append((case.id, table[case.id].codes, us.errors))
            else:
                outcome.stricter_unlisted.append((case.id, us))
        else:
            outcome.agree.append(case.id)
            if case.id in table:
                outcome.listed_not_stricter.append(case.id)
    return outcome
