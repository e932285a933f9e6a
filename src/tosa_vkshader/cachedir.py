"""Where the caches of a run live on disk (compile results, spirv-val verdicts).

A module of its own so that every stage can find the folder without importing the
compile stage for a folder name.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "TOSA_VKSHADER_CACHE_DIR"


def default_cache_dir() -> Path:
    """``$TOSA_VKSHADER_CACHE_DIR``, else the user cache folder of this platform."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override)
    import platformdirs  # only when a cache is actually used

    return Path(platformdirs.user_cache_dir("tosa-vkshader"))
