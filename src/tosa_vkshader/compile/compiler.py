"""Find ``glslc`` and learn which compiler it is."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostic, Severity, rule

COMPILER_MISSING = rule(
    "VKS910", "compiler-missing", Severity.ERROR,
    summary="GLSL/HLSL shader code needs `glslc`, and it was not found.",
    why="Without a compiler the shader cannot be turned into SPIR-V, so its bindings, "
        "formats and workgroup size cannot be checked. Every other check still runs.",
    bad="(shader_language \"GLSL\" on a machine without glslc)",
    good="apt-get install glslc   # or install the Vulkan SDK and set $VULKAN_SDK",
)

INSTALL_HINT = ("install it with `apt-get install glslc` (Debian/Ubuntu) or the Vulkan SDK "
                "(https://vulkan.lunarg.com), or set `glslc` in [tool.tosa-vkshader] to its path")

_GLSLANG_VERSION = re.compile(r"^glslang\s+(\d+)\.(\d+)(?:\.(\d+))?", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class CompilerInfo:
    path: str
    version_text: str  # what `glslc --version` printed, trimmed
    binary: str = ""  # path, size and mtime of the executable

    @property
    def glslang_version(self) -> tuple[int, int, int] | None:
        match = _GLSLANG_VERSION.search(self.version_text)
        if match is None:
            return None
        return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)

    @property
    def summary(self) -> str:
        return ", ".join(line for line in self.version_text.splitlines()[:3] if line)

    @property
    def identity(self) -> str:
        """Changes whenever the compiler (binary or version) changes; part of cache keys."""
        text = f"{self.path}\0{self.version_text}\0{self.binary}"
        return hashlib.sha256(text.encode()).hexdigest()


class CompilerUnavailable(Exception):
    def __init__(self, diagnostic_message: str) -> None:
        super().__init__(diagnostic_message)
        self.diagnostic_message = diagnostic_message


def _executable(path: str) -> str | None:
    candidate = Path(path).expanduser()
    if candidate.is_file() and os.access(candidate, os.X_OK):
        return str(candidate.resolve())
    return None


def locate_glslc(configured: str | None) -> str:
    """The configured path, else ``glslc`` on PATH, else ``$VULKAN_SDK/bin/glslc``."""
    if configured:
        found = _executable(configured) or (
            shutil.which(configured) if os.sep not in configured else None)
        if found is None:
            raise CompilerUnavailable(f"the configured compiler `{configured}` does not exist "
                                      "or is not executable")
        return str(Path(found).resolve())
    found = shutil.which("glslc")
    if found is None and os.environ.get("VULKAN_SDK"):
        sdk_bin = Path(os.environ["VULKAN_SDK"]) / "bin"
        found = _executable(str(sdk_bin / "glslc")) or _executable(str(sdk_bin / "glslc.exe"))
    if found is None:
        raise CompilerUnavailable("`glslc` was not found on PATH or under $VULKAN_SDK/bin")
    return str(Path(found).resolve())


def _stat_key(path: str) -> str:
    st = os.stat(path)
    return f"{path}\0{st.st_size}\0{st.st_mtime_ns}"


def query_version(path: str, timeout: float) -> str:
    try:
        done = subprocess.run([path, "--version"], capture_output=True, timeout=timeout,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CompilerUnavailable(f"`{path} --version` failed: {exc}") from exc
    text = (done.stdout + done.stderr).decode("utf-8", "replace").strip()
    if done.returncode != 0:
        raise CompilerUnavailable(f"`{path} --version` exited with status {done.returncode}: "
                                  f"{text[:200]}")
    return text[:4000]


def compiler_info(configured: str | None, timeout: float,
                  version_memo: dict[str, str] | None = None) -> CompilerInfo:
    """Locate the compiler and read its version. ``version_memo`` maps a binary's
    path/size/mtime to its version text so warm runs start no process."""
    path = locate_glslc(configured)
    key = _stat_key(path)
    if version_memo is not None and key in version_memo:
        return CompilerInfo(path, version_memo[key], key)
    text = query_version(path, timeout)
    if version_memo is not None:
        version_memo[key] = text
    return CompilerInfo(path, text, key)


def missing_diagnostic(pointer: str, reason: str) -> Diagnostic:
    return COMPILER_MISSING.at(pointer, f"cannot compile the shader: {reason}",
                               hint=INSTALL_HINT)
