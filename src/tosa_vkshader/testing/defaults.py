"""The defaults `verify` states in its help, importing nothing (the command line lists
its commands without loading numpy)."""

from __future__ import annotations

# where the failures found are kept, below the current directory
DEFAULT_DATABASE = ".tosa-vkshader/verify-db"
# the default relative tolerance where a result is float16 (about one step of it)
FLOAT16_RTOL = 1e-3
