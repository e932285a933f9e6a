"""Find ``glslc`` and learn which compiler it is."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path

from ..diagnostics import Diagnostic, InnerPosition
from ..rule_registry import rule

COMPILER_MISSING = rule(
    "VKS910",
    summary="GLSL/HLSL shader code needs `glslc`, and it was not found.",
    why="Without a compiler the shader cannot be turned into SPIR-V, so its bindings, "
        "formats and workgroup size cannot be checked. Every other check still runs.",
    bad="(shader_language \"GLSL\" on a machine without glslc)",
    good="apt-get install glslc   # or install the Vulkan SDK and set $VULKAN_SDK",
)

INSTALL_HINT = ("install it with `apt-get install glslc` (Debian/Ubuntu) or the Vulkan SDK "
                "(https://vulkan.lunarg.com), or set `glslc` in [tool.tosa-vkshader] to its path")

_GLSLANG_VERSION = re.compile(r"^glslang\s+(\d+)\.(\d+)(?:\.(\d+))?", re.MULTILINE)
# The scenario runner's compiler prints JSON naming its glslang commit, e.g.
# "glslang=vulkan-sdk-1.4.357.0-0-g168d452".
_REFERENCE_GLSLANG = re.compile(r'"glslang=(?P<tag>[^"\s]+?)(?:-\d+-g[0-9a-f]+)?"')

REFERENCE_ENV = "TOSA_VKSHADER_REFERENCE_GLSLC"
SHADERC, REFERENCE = "glslc (shaderc)", "reference glslc (scenario-runner)"
DXC = "dxc (DirectXShaderCompiler)"


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
    def kind(self) -> str:
        """:data:`REFERENCE` for the scenario runner's compiler (``--input/--output``, one
        GLSL file per process), :data:`SHADERC` for shaderc's ``glslc``."""
        if "dxcompiler" in self.version_text.lower():
            return DXC
        return REFERENCE if _REFERENCE_GLSLANG.search(self.version_text) else SHADERC

    @property
    def glslang(self) -> str:
        """The glslang it is built on, as its ``--version`` names it."""
        match = _REFERENCE_GLSLANG.search(self.version_text)
        if match is not None:
            return match.group("tag")
        version = self.glslang_version
        return ".".join(map(str, version)) if version else "unknown"

    @property
    def summary(self) -> str:
        """One line naming the compiler and its glslang (DXC: its version), for verbose
        and JSON output."""
        if self.kind == DXC:
            return f"{self.kind}, {self.version_text.splitlines()[0]}"
        return f"{self.kind}, glslang {self.glslang}"

    def to_dict(self) -> dict[str, str]:
        return {"name": self.kind, "glslang": self.glslang, "path": self.path}

    @property
    def identity(self) -> str:
        """Changes whenever the compiler (binary or version) changes; part of cache keys."""
        text = f"{self.path}\0{self.version_text}\0{self.binary}"
        return sha256(text.encode()).hexdigest()


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


def locate_dxc() -> str | None:
    """DXC, the HLSL compiler of the reference toolchain: ``dxc`` on PATH, else
    ``$VULKAN_SDK/bin/dxc``; None when neither is there."""
    found = shutil.which("dxc")
    if found is None and os.environ.get("VULKAN_SDK"):
        found = _executable(str(Path(os.environ["VULKAN_SDK"]) / "bin" / "dxc"))
    return str(Path(found).resolve()) if found else None


def locate_reference() -> str | None:
    """The scenario runner wheel's glslc (the compiler the reference runtime uses), or
    None. ``$TOSA_VKSHADER_REFERENCE_GLSLC`` overrides where it is looked for; set to an
    empty string it means "none", which falls back to shaderc's glslc."""
    if REFERENCE_ENV in os.environ:
        wanted = os.environ[REFERENCE_ENV]
        return _executable(wanted) if wanted else None
    try:
        spec = importlib.util.find_spec("scenario_runner")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = _executable(os.path.join(folder, "binaries", "bin", "glslc"))
        if found is not None:
            return found
    return None


def _stat_key(path: str) -> str:
    st = os.stat(path)
    return f"{path}\0{st.st_size}\0{st.st_mtime_ns}"


def query_version(path: str, timeout: float) -> str:
    import subprocess  # (only to ask a compiler not seen before)

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
    return info_for(locate_glslc(configured), timeout, version_memo)


def info_for(path: str, timeout: float, version_memo: dict[str, str] | None = None
             ) -> CompilerInfo:
    """The :class:`CompilerInfo` of the compiler at ``path`` (an existing executable)."""
    key = _stat_key(path)
    if version_memo is not None and key in version_memo:
        return CompilerInfo(path, version_memo[key], key)
    text = query_version(path, timeout)
    if version_memo is not None:
        version_memo[key] = text
    return CompilerInfo(path, text, key)


def missing_diagnostic(pointer: str, reason: str, source: str = "") -> Diagnostic:
    """VKS910 at the shader's first line that needs the compiler: GL_ARM_tensors' where
    the shader uses them (a compiler that has them is what is missing), else the first
    line with any text (rather than the whole ``shader_code``)."""
    from .needs_lines import needing_line

    inner = needing_line(source, "TensorsARM") if "ARM_tensors" in source else None
    if inner is None:
        first = next((k for k, line in enumerate(source.split("\n"), 1) if line.strip()), 1)
        inner = InnerPosition(first, 1)
    return COMPILER_MISSING.at(pointer, f"cannot compile the shader: {reason}",
                               hint=INSTALL_HINT, inner=inner)
