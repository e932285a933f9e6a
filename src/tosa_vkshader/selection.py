"""Is a code given to --select/--ignore/severity one the tool knows, and does a selection
leave any error-level rule on? A typo there must never open the gate silently."""

from __future__ import annotations

from collections.abc import Callable

from .config import Options
from .diagnostics import Diagnostic, Severity
from .rule_registry import RULES, UNKNOWN_CODE, rule, unknown_code

NO_ERROR_RULE_LEFT = rule(
    "VKS934",
    summary="The selection (select, ignore, severity) leaves no error-level rule enabled.",
    why="With no rule able to report an error, `check` always exits 0: the gate is open "
        "whatever the files contain. That may be intended for a report-only run, but it is "
        "never silent.",
    bad='[tool.tosa-vkshader]\nselect = ["VKS115"]',
    good='[tool.tosa-vkshader]\nselect = ["VKS1", "VKS115"]',
)


def error_rules_enabled(enabled: Callable[[str], bool], severity: dict[str, Severity]
                        ) -> list[str]:
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


def no_error_rule_left(options: Options) -> Diagnostic | None:
    """A VKS934 warning when ``options`` leave no rule that can report an error."""
    if error_rules_enabled(options.enabled, options.severity):
        return None
    chosen = ", ".join(f"{name} = {list(value)}" for name, value in
                       (("select", options.select), ("ignore", options.ignore)) if value)
    return NO_ERROR_RULE_LEFT.at(
        "", f"the selection ({chosen or 'severity overrides'}) leaves no error-level rule "
            "enabled: no file can fail this check")
