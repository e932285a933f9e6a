"""Reporters: turn reports into text, JSON, SARIF or GitHub annotations."""

from __future__ import annotations

from collections.abc import Callable

from ..checked import Report

Reporter = Callable[[list[Report]], str]


def get_reporter(name: str, *, color: bool = False) -> Reporter:
    if name == "text":
        from .text import render_text

        return lambda reports: render_text(reports, color=color)
    if name == "json":
        from .json_report import render_json

        return render_json
    if name == "sarif":
        from .sarif import render_sarif

        return render_sarif
    if name == "github":
        from .github import render_github

        return render_github
    raise ValueError(f"unknown format {name!r}")


FORMATS = ("text", "json", "sarif", "github")
