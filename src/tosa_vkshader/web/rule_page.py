"""One rule's documentation for ``GET /v1/rules/{code}``: JSON, or a small HTML page.

The text is the rule's own (``rule(...)`` in the module that checks it), the same that
``tosa-vkshader rule CODE`` prints and docs/rules.md is generated from.
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..rule_registry import find
from ..rules_doc import documented


def rule_document(code_or_name: str) -> dict[str, Any] | None:
    """The rule named by its code (any case) or its name, or None."""
    entry = find(code_or_name)
    if entry is None:
        return None
    found = documented(entry)
    return {"code": found.code, "name": found.name, "severity": found.severity.label,
            "group": found.group, "summary": found.summary, "why": found.why,
            "bad": found.bad, "good": found.good, "docs": found.docs}


def _inline(text: str) -> str:
    """Markdown's `code` spans as <code>; everything else escaped."""
    parts = escape(text).split("`")
    return "".join(f"<code>{p}</code>" if k % 2 else p for k, p in enumerate(parts))


def rule_html(rule: dict[str, Any]) -> bytes:
    title = f"{rule['code']} {rule['name']}"
    severity = escape(rule["severity"])
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(title)} · tosa-vkshader</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/style.css">
</head>
<body class="rule-page">
  <main class="rule-doc">
    <p><a href="/">&larr; playground</a></p>
    <h1 id="rule-title"><code>{escape(rule['code'])}</code> {escape(rule['name'])}</h1>
    <p class="rule-meta"><span class="sev sev-{severity}">{severity}</span>
      {escape(rule['group'])}</p>
    <p class="rule-summary">{_inline(rule['summary'])}</p>
    <h2>Why</h2>
    <p>{_inline(rule['why'])}</p>
    <h2>Bad</h2>
    <pre class="rule-bad">{escape(rule['bad'])}</pre>
    <h2>Good</h2>
    <pre class="rule-good">{escape(rule['good'])}</pre>
  </main>
</body>
</html>
""".encode()
