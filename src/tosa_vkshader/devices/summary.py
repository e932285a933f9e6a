"""``check --targets-summary``: op by op, which target devices can run it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Location, Severity
from .profile import DeviceProfile

DEVICE_GROUP = "VKS7"


@dataclass(frozen=True, slots=True)
class OpVerdict:
    """One op: where it is, its own errors, and per target the device findings."""

    path: str | None
    name: str | None
    location: Location | None
    errors: int  # errors that are not about a device: the op is broken everywhere
    # target name -> codes (sorted, unique) of the device errors for that target
    blocked: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def runs_on(self, target: str) -> bool:
        return self.errors == 0 and not self.blocked.get(target)

    @property
    def label(self) -> str:
        where = str(self.location) if self.location is not None else self.path or "<input>"
        return f"{where} {self.name}" if self.name and self.name not in where else where


def verdict(path: str | None, name: str | None, location: Location | None,
            diagnostics: list[Diagnostic], targets: tuple[DeviceProfile, ...]) -> OpVerdict:
    errors = [d for d in diagnostics if d.severity is Severity.ERROR]
    blocked = {t.name: tuple(sorted({d.code for d in errors if d.target == t.name}))
               for t in targets}
    own = sum(1 for d in errors if not d.code.startswith(DEVICE_GROUP))
    return OpVerdict(path, name, location, own, blocked)


def render_summary_text(verdicts: list[OpVerdict], targets: tuple[DeviceProfile, ...]) -> str:
    header = ["op", *(t.name for t in targets)]
    rows = []
    for item in verdicts:
        cells = [item.label]
        for target in targets:
            if item.errors:
                cells.append(f"no: {item.errors} op error(s)")
            elif item.blocked.get(target.name):
                cells.append("no: " + ", ".join(item.blocked[target.name]))
            else:
                cells.append("yes")
        rows.append(cells)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
             for r in [header, ["-" * w for w in widths], *rows]]
    runs = {t.name: sum(v.runs_on(t.name) for v in verdicts) for t in targets}
    lines.append("")
    lines += [f"{t.name}: {runs[t.name]} of {len(verdicts)} op(s) can run ({t.source})"
              for t in targets]
    return "\n".join(lines) + "\n"


def summary_to_dict(verdicts: list[OpVerdict], targets: tuple[DeviceProfile, ...]) -> dict:
    return {
        "targets": [{"name": t.name, "source": t.source, "profile": t.profile,
                     "label": t.label, "api_version": t.version_text} for t in targets],
        "ops": [{
            "path": v.path, "name": v.name,
            "line": v.location.line if v.location else None,
            "op_errors": v.errors,
            "targets": {t.name: {"runs": v.runs_on(t.name),
                                 "codes": list(v.blocked.get(t.name, ()))}
                        for t in targets},
        } for v in verdicts],
    }
