"""Where things sit in a pyproject.toml, so configuration errors point at their line.

``tomllib`` gives values without positions; the options of ``[tool.tosa-vkshader]`` are
simple ``key = value`` lines, so a line scan finds each key's line and column.
"""

from __future__ import annotations

import re

_TABLE = re.compile(
    r"""^\s*\[\s*tool\s*\.\s*(?:"tosa-vkshader"|'tosa-vkshader'|tosa-vkshader)\s*\]""")
_ANY_TABLE = re.compile(r"^\s*\[")
_KEY = re.compile(r"""^(\s*)(["']?)([A-Za-z0-9_-]+)\2\s*=""")
_DECODE_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


def option_locations(text: str) -> dict[str, tuple[int, int]]:
    """1-based (line, column) of each key of the ``[tool.tosa-vkshader]`` table; the
    table header itself under the key ``""``."""
    found: dict[str, tuple[int, int]] = {}
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        if _TABLE.match(line):
            inside = True
            found.setdefault("", (number, len(line) - len(line.lstrip()) + 1))
        elif _ANY_TABLE.match(line):
            inside = False
        elif inside and (match := _KEY.match(line)):
            found.setdefault(match.group(3), (number, len(match.group(1)) + 1))
    return found


def toml_error_position(error: Exception) -> tuple[int, int]:
    """The (line, column) a TOML syntax error names, else (1, 1)."""
    match = _DECODE_POSITION.search(str(error))
    return (int(match.group(1)), int(match.group(2))) if match else (1, 1)
