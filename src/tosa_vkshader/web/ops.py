"""Op objects (``{"domain_name", "operator_name", "implementation_attrs"}``) for the web.

The core's JSON reader unwraps op objects (see ``sources/json_source.py``); this module
only recognises them for request validation and routing, and pairs sources with the
report they make so that a worker can check many requests in one pipeline run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..checked import Report
from ..diagnostics import Diagnostic
from ..sources.base import SourceFile

ATTRS_KEY = "implementation_attrs"


@dataclass(slots=True)
class Prepared:
    """Sources to check, and how their diagnostics (one list per source) make a report."""

    sources: list[SourceFile]
    report: Callable[[list[list[Diagnostic]]], Report]


def is_op_object(value: Any) -> bool:
    return isinstance(value, dict) and ATTRS_KEY in value


def single(source: SourceFile, path: str) -> Prepared:
    return Prepared([source], lambda found: Report(path, found[0], source))
