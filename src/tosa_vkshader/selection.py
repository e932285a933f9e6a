"""Is a code given to --select/--ignore/severity one the tool knows, and does a selection
leave any error-level rule on? A typo there must never open the gate silently."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .diagnostics import Diagnostic, Severity
from .rule_registry import RULES, rule

if TYPE_CHECKING:
    from typing import Protocol

    class Selection(Protocol):
        """What :func:`no_error_rule_left` reads of ``config.Options`` (a protocol, because
        config imports this module)."""

        @property
        def select(self) -> tuple[str, ...]: ...

        @property
        def ignore(self) -> tuple[str, ...]: ...

        @property
        def severity(self) -> dict[str, Severity]: ...

        @property
        def enabled(self) -> Callable[[str], bool]: ...


UNKNOWN_CODE = rule(
    "VKS933",
    summary="A code or prefix given to `--select`, `--ignore` or `severity` matches no rule.",
    why="`--ignore VKS1111` or `select = [\"VSK1\"]` would otherwise select nothing or "
        "ignore nothing without a word, and a gate meant to block a commit lets it through.",
    bad="tosa-vkshader check --select VSK1 ops/",
    good="tosa-vkshader check --select VKS1 ops/",
)

NO_ERROR_RULE_LEFT = rule(
    "VKS934",
    summary="The selection (select, ignore, severity) leaves no error-level rule enabled.",
    why="With no rule able to report an error, `check` always exits 0: the gate is open "
        "whatever the files contain. That may be intended for a report-only run, but it is "
        "never silent.",
    bad='[tool.tosa-vkshader]\nselect = ["VKS115"]',
    good='[tool.tosa-vkshader]\nselect = ["VKS1", "VKS115"]',
)


def unknown_code(code: str) -> tuple[str, str | None] | None:
    """None when ``code`` is a rule code or a prefix of one; else (why, hint). The hint
    names only close matches: one character replaced, added, removed, or two neighbours
    swapped (`VKS2O3`, `VKS1111`, `VSK1`); `VKS99999` is close to nothing."""
    if code and any(known.startswith(code) for known in RULES):
        return None
    # A group prefix is suggested only for a group-sized typo (`VSK1`), never for a code.
    candidates = (sorted(RULES) if len(code) > 4
                  else sorted({known[:4] for known in RULES}))
    alike = code.translate(_LOOK_ALIKE)
    close = [alike] if alike in candidates else \
        [c for c in candidates if _one_edit_apart(code, c)]
    hint = ("did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
            if 0 < len(close) <= 3 else None)
    return "which matches no rule (`tosa-vkshader rule` lists them)", hint


# Letters typed for the digits they look like (`VKS2O3`, `VKS1l0`).
_LOOK_ALIKE = str.maketrans({"O": "0", "o": "0", "I": "1", "l": "1", "L": "1"})


def _one_edit_apart(typed: str, known: str) -> bool:
    """One substitution, insertion, deletion or swap of neighbours turns ``typed`` into
    ``known``."""
    if abs(len(typed) - len(known)) > 1 or typed == known:
        return False
    if len(typed) == len(known):
        diffs = [k for k, (a, b) in enumerate(zip(typed, known, strict=True)) if a != b]
        return len(diffs) == 1 or (len(diffs) == 2 and diffs[1] == diffs[0] + 1
                                   and typed[diffs[0]] == known[diffs[1]]
                                   and typed[diffs[1]] == known[diffs[0]])
    longer, shorter = (typed, known) if len(typed) > len(known) else (known, typed)
    return any(longer[:k] + longer[k + 1:] == shorter for k in range(len(longer)))


def error_rules_enabled(enabled, severity: dict[str, Severity]) -> list[str]:
    """The codes that can still report an error: enabled by ``enabled(code)`` and of error
    severity after the ``severity`` overrides."""
    return [code for code, entry in RULES.items()
            if enabled(code) and severity.get(code, entry.severity) is Severity.ERROR]


def code_problems(option: str, codes: tuple[str, ...] | None) -> list[Diagnostic]:
    """A VKS933 for every code of ``option`` (e.g. ``--select``) that matches no rule."""
    problems = []
    for code in codes or ():
        found = unknown_code(code)
        if found:
            problems.append(UNKNOWN_CODE.at("", f"`{option}` names {code!r}, {found[0]}",
                                            hint=found[1]))
    return problems


def no_error_rule_left(options: Selection) -> Diagnostic | None:
    """A VKS934 warning when ``options`` leave no rule that can report an error."""
    if error_rules_enabled(options.enabled, options.severity):
        return None
    chosen = ", ".join(f"{name} = {list(value)}" for name, value in
                       (("select", options.select), ("ignore", options.ignore)) if value)
    return NO_ERROR_RULE_LEFT.at(
        "", f"the selection ({chosen or 'severity overrides'}) leaves no error-level rule "
            "enabled: no file can fail this check")
