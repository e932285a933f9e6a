"""Shared by the tests/test_compile*.py files: a logging glslc wrapper and small helpers."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

REAL_GLSLC = shutil.which("glslc")
SPIRV_MAGIC = (0x07230203).to_bytes(4, "little")

# Markers a test shader can carry to make the wrapper misbehave like a broken compiler.
_MISBEHAVE = """
for arg in "$@"; do
  case "$arg" in
    *.glsl|*.hlsl)
      if grep -q CRASH_ME "$arg"; then kill -SEGV $$; fi
      if grep -q HANG_ME "$arg"; then : > "$0.hanging"; exec sleep 60; fi
      if grep -q FLOOD_ME "$arg"; then exec yes "flooding the terminal"; fi
      ;;
  esac
done
"""


class Glslc:
    """A glslc wrapper that records every invocation, optionally misbehaving on markers."""

    def __init__(self, folder: Path, *, misbehave: bool = False,
                 version: str | None = None) -> None:
        assert REAL_GLSLC, "glslc must be installed (apt-get install glslc)"
        folder.mkdir(parents=True, exist_ok=True)
        self.log = folder / "glslc.log"
        self.path = folder / "glslc"
        version_line = (f'if [ "$1" = --version ]; then printf "%s\\n" "{version}"; exit 0; fi'
                        if version else "")
        self.path.write_text(
            "#!/bin/sh\n"
            f'echo "$*" >> "{self.log}"\n'
            f"{version_line}\n"
            f"{_MISBEHAVE if misbehave else ''}\n"
            f'exec "{REAL_GLSLC}" "$@"\n')
        self.path.chmod(self.path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)

    def compile_runs(self) -> list[str]:
        """Invocations other than `--version`."""
        if not self.log.exists():
            return []
        return [line for line in self.log.read_text().splitlines() if line != "--version"]


def is_spirv(data: bytes | None) -> bool:
    return data is not None and data[:4] == SPIRV_MAGIC and len(data) % 4 == 0


def spirv_words(data: bytes) -> list[int]:
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


def has_capability(data: bytes, capability: int) -> bool:
    words = spirv_words(data)
    return any(words[i] == (2 << 16 | 17) and words[i + 1] == capability
               for i in range(5, len(words) - 1))


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]
