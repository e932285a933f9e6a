"""tosa-vkshader: validate and generate TOSA custom ops that embed a Vulkan compute shader.

>>> import tosa_vkshader
>>> report = tosa_vkshader.validate({"entry_point": "main", "workgroup_sizes": [8, 8, 1]})
>>> report.ok
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

from .api import Report, check_file, check_paths, targets_summary, validate  # noqa: E402
from .config import Options, load_options  # noqa: E402
from .diagnostics import RULES, Diagnostic, Location, Severity  # noqa: E402

if TYPE_CHECKING:
    from .model import Attributes, PushConstant, PushConstants, Resource, SamplerConfig

_MODEL_NAMES = {"Attributes", "Resource", "SamplerConfig", "PushConstant", "PushConstants"}


def __getattr__(name: str) -> Any:
    # The pydantic models are imported on first use: the CLI does not need them and
    # importing pydantic costs more than checking a thousand files.
    if name in _MODEL_NAMES:
        from . import model

        return getattr(model, name)
    raise AttributeError(f"module 'tosa_vkshader' has no attribute {name!r}")


__all__ = [
    "RULES", "Attributes", "Diagnostic", "Location", "Options", "PushConstant",
    "PushConstants", "Report", "Resource", "SamplerConfig", "Severity", "check_file",
    "check_paths", "load_options", "targets_summary", "validate", "__version__",
]
