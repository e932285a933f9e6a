"""tosa-vkshader: validate and generate TOSA custom ops that embed a Vulkan compute shader.

>>> import tosa_vkshader
>>> report = tosa_vkshader.validate({"entry_point": "main", "workgroup_sizes": [8, 8, 1]})
>>> report.ok
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .api import Report, check_file, check_paths, validate
    from .config import Options, load_options
    from .diagnostics import RULES, Diagnostic, Location, Severity
    from .model import Attributes, PushConstant, PushConstants, Resource, SamplerConfig

# Every public name is imported on first use: `tosa-vkshader --version` loads nothing else,
# and the pydantic models (which cost more than checking a thousand files) only load for
# callers that use them.
_HOME = {
    "Report": "api", "check_file": "api", "check_paths": "api", "validate": "api",
    "Options": "config", "load_options": "config",
    "RULES": "diagnostics", "Diagnostic": "diagnostics", "Location": "diagnostics",
    "Severity": "diagnostics",
    "Attributes": "model", "Resource": "model", "SamplerConfig": "model",
    "PushConstant": "model", "PushConstants": "model",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'tosa_vkshader' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))


__all__ = [
    "RULES", "Attributes", "Diagnostic", "Location", "Options", "PushConstant",
    "PushConstants", "Report", "Resource", "SamplerConfig", "Severity", "check_file",
    "check_paths", "load_options", "validate", "__version__",
]
