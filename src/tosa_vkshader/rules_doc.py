"""Generate docs/rules.md from the rule registry.

    python -m tosa_vkshader.rules_doc           # rewrite docs/rules.md and rule_index.py
    python -m tosa_vkshader.rules_doc --check   # exit 1 when stale
"""

from __future__ import annotations

import sys
from pathlib import Path

from .diagnostics import GROUPS, RULES
from .generated import write_or_check

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
# Every code and its default severity, importable without loading the checks: --select and
# --ignore are validated against it at start-up.
INDEX_PATH = Path(__file__).resolve().parent / "rule_index.py"


def load_all_rules() -> None:
    """Import every module that declares rules."""
    import importlib
    import pkgutil

    import tosa_vkshader

    for module in pkgutil.walk_packages(tosa_vkshader.__path__, "tosa_vkshader."):
        if module.name.endswith(("__main__", ".generate", ".rules_doc", ".schema")):
            continue
        if module.name == "tosa_vkshader.web.app":  # needs the web extra; declares no rule
            continue
        importlib.import_module(module.name)


def render() -> str:
    load_all_rules()
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
    for digit, group in GROUPS.items():
        codes = sorted(c for c in RULES if c[3] == digit)
        if not codes:
            continue
        lines += [f"## {group} (VKS{digit}xx)", "", "| code | name | severity | summary |",
                  "|---|---|---|---|"]
        lines += [f"| [{c}](#{c.lower()}) | {RULES[c].name} | {RULES[c].severity.label} | "
                  f"{RULES[c].summary.replace('|', '&#124;')} |" for c in codes]
        lines.append("")
        for code in codes:
            item = RULES[code]
            lines += [
                f"### {code}",
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


def render_index() -> str:
    load_all_rules()
    lines = ['"""Every rule code and its default severity.',
             "",
             "Generated from the rule registry by `python -m tosa_vkshader.rules_doc`; do not "
             "edit by hand.",
             '"""',
             "",
             "SEVERITIES = {"]
    lines += [f'    "{code}": "{RULES[code].severity.label}",' for code in sorted(RULES)]
    lines += ["}", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) docs/rules.md and the rule index."""
    description = __doc__.splitlines()[0]
    return (write_or_check(DOC_PATH, render, "tosa_vkshader.rules_doc", description, argv)
            or write_or_check(INDEX_PATH, render_index, "tosa_vkshader.rules_doc",
                              description, argv))


if __name__ == "__main__":
    sys.exit(main())
