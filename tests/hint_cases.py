"""What the hint tests (tests/test_hints*.py) share.

Every hint is tested where it fires: a case gives what a user could have written, the
rule code, the hint expected, and (where following the hint is mechanical) what the user
writes after following it; the test checks that the problem is then gone and that no
new error took its place. ``hinted`` (``printed`` for a command's output) is the one way
the tests take a hinted diagnostic, and ``Case`` the one way they tabulate one:
``test_hints_cover.py`` reads the codes given to them to know which rules' hints are
tested.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tosa_vkshader import Report, validate


@dataclass(frozen=True)
class Case:
    code: str
    given: Any  # what the user wrote: attributes, a file's text, arguments...
    hint: str  # the hint expected, exactly
    fixed: Any = None  # the same after following the hint (None: nothing mechanical)
    pointer: str | None = None  # where, when the code fires in several places
    extra: dict = field(default_factory=dict)  # whatever else the group needs

    def __str__(self) -> str:  # pytest ids
        return f"{self.code}-{self.hint[:40]}"


def hinted(diagnostics, code: str, *, pointer: str | None = None, hint: str | None = None):
    """The one diagnostic with ``code`` (at ``pointer``), which must carry a hint (that
    hint, when given). Accepts Diagnostic objects and the dicts of JSON output."""
    found = [d for d in diagnostics if _get(d, "code") == code
             and (pointer is None or _get(d, "pointer") == pointer)]
    if len(found) > 1 and hint is not None:  # several findings of one rule at one place,
        found = [d for d in found if _get(d, "hint") == hint][:1]  # (the same fix for all)
    assert len(found) == 1, f"{code} at {pointer}: {[_describe(d) for d in diagnostics]}"
    got = _get(found[0], "hint")
    assert got, f"{code} has no hint: {_describe(found[0])}"
    if hint is not None:
        assert got == hint, f"{code}: {got!r}"
    return found[0]


def printed(output: str, code: str, hint: str) -> None:
    """A command printed a diagnostic with ``code`` and, on the next lines, its hint."""
    lines = output.splitlines()
    starts = [i for i, line in enumerate(lines) if f"[{code}]" in line]
    assert starts, output
    following = lines[starts[0] + 1:]
    end = next((i for i, line in enumerate(following) if not line.startswith(" ")),
               len(following))
    assert f"= help: {hint}" in "\n".join(following[:end]), output


def not_reported(diagnostics, code: str, pointer: str | None = None) -> None:
    left = [d for d in diagnostics if _get(d, "code") == code
            and (pointer is None or _get(d, "pointer") == pointer)]
    assert not left, [_describe(d) for d in left]


def errors(diagnostics) -> list[str]:
    return [_describe(d) for d in diagnostics if _get(d, "severity") in ("error", "ERROR")
            or getattr(_get(d, "severity"), "name", "") == "ERROR"]


def check_attributes(case: Case) -> None:
    """A case on attributes (a dict or JSON text): the hint where it fires; after the fix,
    the code gone at that place and no new error."""
    before = validate(case.given)
    hinted(before.diagnostics, case.code, pointer=case.pointer, hint=case.hint)
    if case.fixed is not None:
        after_fix(before, validate(case.fixed), case.code, case.pointer)


def after_fix(before: Report, after: Report, code: str, pointer: str | None) -> None:
    not_reported(after.diagnostics, code, pointer)
    new = set(errors(after.diagnostics)) - set(errors(before.diagnostics))
    assert not new, new


def text(value: Any) -> str:
    return json.dumps(value, indent=2)


def _get(diag, name: str):
    return diag[name] if isinstance(diag, dict) else getattr(diag, name)


def _describe(diag) -> str:
    return f"{_get(diag, 'code')} {_get(diag, 'pointer')}: {_get(diag, 'message')}"
