"""tosa-vkshader: validate and generate TOSA custom ops that embed a Vulkan compute shader.

>>> import tosa_vkshader
>>> report = tosa_vkshader.validate({"entry_point": "main", "workgroup_sizes": [8, 8, 1]})
>>> report.ok
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .version import __version__

if TYPE_CHECKING:
    from typing import Any

    from .api import Report, check_file, check_paths, targets_summary, validate, validate_file
    from .config import Options
    from .config_file import load_options
    from .diagnostics import Applicability, Diagnostic, Edit, Fix, Location, Severity
    from .fixes import apply_fixes
    from .rule_registry import RULES
    from .runtime import PreparedModel, RunResult, prepare, run
    from .runtime.errors import RunError
    from .typed_attributes import Attributes, PushConstant, PushConstants, Resource, SamplerConfig

# Every public name is imported on first use: `tosa-vkshader --version` (and the console
# script, which imports this package first) must not pay for the checker, and the
# pydantic models cost more than checking a thousand files.
_LAZY = {
    **dict.fromkeys(("Report", "check_file", "check_paths", "targets_summary", "validate",
                     "validate_file"), "api"),
    "Options": "config",
    "load_options": "config_file",
    **dict.fromkeys(("Applicability", "Diagnostic", "Edit", "Fix", "Location", "Severity"),
                    "diagnostics"),
    "apply_fixes": "fixes",
    "RULES": "rule_registry",
    **dict.fromkeys(("Attributes", "Resource", "SamplerConfig", "PushConstant",
                     "PushConstants"), "typed_attributes"),
    "RunError": "runtime.errors",
    **dict.fromkeys(("run", "prepare", "RunResult", "PreparedModel"), "runtime"),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tosa_vkshader' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "RULES", "Applicability", "Attributes", "Diagnostic", "Edit", "Fix", "Location",
    "Options", "PreparedModel", "PushConstant", "PushConstants", "Report", "Resource",
    "RunError", "RunResult", "SamplerConfig", "Severity", "apply_fixes", "check_file",
    "check_paths", "load_options", "prepare", "run", "targets_summary", "validate",
    "validate_file", "__version__",
]
