"""The ``[tool]`` entry of a pyproject.toml that concerns us, parsed once per content.

Every command run inside a project reads its pyproject.toml, and ``tomllib`` (with the
``typing`` and ``datetime`` it imports) costs 5-9 ms before the first file is checked:
most of a commit hook's check of one file, and CPU taken from the scenario runner while
``run`` waits for it. What the configuration needs of the file is small: whether ``tool``
is a table, and the ``tool.tosa-vkshader`` value. That is kept as JSON in the user cache,
under the SHA-256 of the file's text (and the Python version, whose ``tomllib`` parsed
it), so an edited file is a new key and nothing can be stale. Text that does not parse,
or a table JSON cannot hold, is never kept: it is parsed, and reported, every time.
"""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from typing import TYPE_CHECKING

from .cachedir import default_cache_dir

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

_FOLDER = "pyproject-v1"


class ToolTable:
    """What a pyproject.toml says about the tool: ``tool_is_table`` (False for `tool = 5`)
    and ``table``, the ``tool.tosa-vkshader`` value (None when there is none)."""

    __slots__ = ("table", "tool_is_table")

    def __init__(self, tool_is_table: bool, table: Any) -> None:
        self.tool_is_table = tool_is_table
        self.table = table


@lru_cache(maxsize=8)
def tool_table(text: str) -> ToolTable:
    """The tool's entry in pyproject.toml ``text``; raises ``tomllib.TOMLDecodeError``
    when the text is not TOML. Remembered in this process too: finding the nearest
    configuration and loading it ask for the same file one after the other."""
    from hashlib import sha256

    key = sha256(f"{sys.version_info[0]}.{sys.version_info[1]}\0{text}".encode(
        "utf-8", "surrogatepass")).hexdigest()
    path = default_cache_dir() / _FOLDER / key[:2] / f"{key}.json"
    kept = _read(path)
    if kept is not None:
        return kept
    import tomllib  # only for a pyproject.toml not seen before

    tool = tomllib.loads(text).get("tool", {})
    found = ToolTable(True, tool.get("tosa-vkshader")) if isinstance(tool, dict) \
        else ToolTable(False, None)
    _keep(path, found)
    return found


def _read(path: Path) -> ToolTable | None:
    try:
        stored = json.loads(path.read_bytes())
        return ToolTable(bool(stored["tool_is_table"]), stored["table"])
    except (OSError, ValueError, KeyError, TypeError):
        return None  # not kept yet, or unreadable: parse the text


def _keep(path: Path, found: ToolTable) -> None:
    try:
        data = json.dumps({"tool_is_table": found.tool_is_table, "table": found.table},
                          allow_nan=False).encode()
    except (TypeError, ValueError):
        return  # a date or a non-finite number: parsed again next time (and refused)
    if json.loads(data)["table"] != found.table:
        return  # JSON would change it (a tuple, say): not kept
    from .fsutil import write_atomic

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data, durable=False)
    except OSError:
        pass  # a read-only or full cache: parsed again next time
