"""The rules' documentation, read from the module that declares each rule (the one its
``rule_registry`` row names): docs/rules.md, ``tosa-vkshader rule CODE``, the SARIF rule
list and the web's rule pages are all made from :func:`documented`.

    python -m tosa_vkshader.rules_doc           # rewrite docs/rules.md
    python -m tosa_vkshader.rules_doc --check   # exit 1 when stale
"""

from __future__ import annotations

import importlib
import sys
from functools import cache
from pathlib import Path

from .diagnostics import Rule
from .generated import write_or_check
from .rule_registry import GROUPS, RULES, RuleEntry

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def documented(entry: RuleEntry) -> Rule:
    """The rule's documentation, as declared next to its check."""
    found = _declared_in(entry.module).get(entry.code)
    if found is None:
        raise LookupError(f"tosa_vkshader.{entry.module} declares no rule {entry.code}, "
                          "though rule_registry.RULES says it does")
    return found


def all_rules() -> list[Rule]:
    """Every rule's documentation, by code."""
    return [documented(entry) for _code, entry in sorted(RULES.items())]


@cache
def _declared_in(module: str) -> dict[str, Rule]:
    names = vars(importlib.import_module(f"tosa_vkshader.{module}"))
    return {value.code: value for value in names.values() if isinstance(value, Rule)}


def render() -> str:
    rules = all_rules()
    lines = [
        "# Rules",
        "",
        "Generated from the rule registry by `python -m tosa_vkshader.rules_doc`; do not "
        "edit by hand. `tosa-vkshader rule CODE` prints the same text.",
        "",
        "Select or ignore codes (or prefixes such as `VKS2`) with `--select`/`--ignore`, or in "
        "`pyproject.toml`:",
        "",
        "```toml",
        "[tool.tosa-vkshader]",
        'ignore = ["VKS115"]',
        'severity = { VKS203 = "error" }',
        "```",
        "",
    ]
    from .rules.coverage import GUIDE

    lines += [GUIDE]
    for digit, group in GROUPS.items():
        group_rules = [item for item in rules if item.code[3] == digit]
        if not group_rules:
            continue
        lines += [f"## {group} (VKS{digit}xx)", "", "| code | name | severity | summary |",
                  "|---|---|---|---|"]
        lines += [f"| [{r.code}](#{r.code.lower()}) | {r.name} | {r.severity.label} | "
                  f"{r.summary.replace('|', '&#124;')} |" for r in group_rules]
        lines.append("")
        for item in group_rules:
            lines += [
                f"### {item.code}",
                "",
                f"**{item.name}** ({item.severity.label} by default)",
                "",
                item.summary,
                "",
                f"*Why:* {item.why}",
                "",
                "Bad:",
                "",
                "```",
                item.bad,
                "```",
                "",
                "Good:",
                "",
                "```",
                item.good,
                "```",
                "",
            ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) docs/rules.md."""
    return write_or_check(DOC_PATH, render, "tosa_vkshader.rules_doc",
                          "Generate docs/rules.md from the rules' documentation", argv)


if __name__ == "__main__":
    sys.exit(main())
