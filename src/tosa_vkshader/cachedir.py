"""Where the caches of a run live on disk (compile results, spirv-val verdicts, the
emulation layers' manifests for `run`).

A module of its own so that every stage can find the folder without importing the
compile stage for a folder name. On Linux the usual case is answered as platformdirs
answers it (``$XDG_CACHE_HOME`` when it is an absolute path, else ``~/.cache``, then
``tosa-vkshader``) without importing platformdirs (6 ms, more than `run` may spend before
it starts the converter); anything else asks platformdirs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ENV_VAR = "TOSA_VKSHADER_CACHE_DIR"
APP = "tosa-vkshader"


def default_cache_dir() -> Path:
    """``$TOSA_VKSHADER_CACHE_DIR``, else the user cache folder of this platform."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override)
    usual = _linux_user_cache_dir()
    if usual is not None:
        return usual
    import platformdirs  # only when a cache is actually used

    return Path(platformdirs.user_cache_dir(APP))


def _linux_user_cache_dir() -> Path | None:
    """platformdirs' answer on Linux with an absolute ``$HOME`` (or none) and
    ``$XDG_CACHE_HOME`` unset, empty or absolute; None otherwise."""
    if sys.platform != "linux":
        return None
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / APP
    if xdg.strip():  # a relative value: versions of platformdirs differ on it
        return None
    home = os.environ.get("HOME")
    if home is not None and not os.path.isabs(home):
        return None
    base = os.path.expanduser("~/.cache")
    return Path(base) / APP if os.path.isabs(base) else None
