"""Options: everything that changes what the checker reports. Read from
``[tool.tosa-vkshader]`` in the nearest pyproject.toml by ``config_file``."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .diagnostics import Severity

if TYPE_CHECKING:
    from typing import Any, Literal

    WorkgroupSemantics = Literal["local-size", "dispatch"]
WORKGROUP_SEMANTICS: tuple[str, ...] = ("dispatch", "local-size")


@dataclass(frozen=True, slots=True)
class Options:
    """Everything that changes what the checker reports."""

    select: tuple[str, ...] = ()  # code prefixes; empty means all
    ignore: tuple[str, ...] = ()  # code prefixes
    workgroup_semantics: WorkgroupSemantics = "dispatch"  # the reference runtime's reading
    max_file_size: int = 16 * 1024 * 1024  # attribute JSON (and every file not a model)
    # .mlir / .tosa models carry their weights, so they are much larger than attribute
    # files; they are scanned, never parsed into objects, so memory stays near the size.
    max_model_size: int = 1024 * 1024 * 1024
    max_depth: int = 64
    target_env: str = "vulkan1.3"
    severity: dict[str, Severity] = field(default_factory=dict)  # per-code override
    exclude: tuple[str, ...] = ()  # glob patterns of paths not to check when walking folders
    # Shader compilation (GLSL/HLSL through glslc).
    glslc: str | None = None  # explicit compiler path; else PATH, then $VULKAN_SDK/bin
    macros: tuple[tuple[str, str | None], ...] = ()
    include_dirs: tuple[str, ...] = ()  # absolute, resolved against the pyproject's folder
    allow_includes: bool = False
    cache: bool = True
    compile_timeout: float = 8.0
    compile_memory_limit: int = 2 * 1024 ** 3  # bytes of address space per compiler process
    # Target devices: shipped profile names or Vulkan Profiles JSON files (resolved paths).
    # Empty: no target-device rules run.
    target_device: tuple[str, ...] = ()

    def size_limit(self, path: str) -> int:
        """How many bytes of this file may be read: models (.mlir, .tosa) carry weights."""
        model = path.lower().endswith((".mlir", ".tosa"))
        return self.max_model_size if model else self.max_file_size

    def enabled(self, code: str) -> bool:
        if self.select and not any(code.startswith(p) for p in self.select):
            return False
        return not any(code.startswith(p) for p in self.ignore)

    def with_overrides(self, **changes: Any) -> Options:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})
