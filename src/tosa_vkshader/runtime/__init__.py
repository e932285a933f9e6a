"""Run a model's custom shader ops for real, through the reference Arm ML SDK toolchain.

model-converter (TOSA MLIR -> VGF) -> vgf_dump (the model interface) -> a scenario with
the inputs in the VGF's layout -> scenario-runner on a Vulkan device (lavapipe unless a
GPU is present or ``device`` says otherwise) -> the outputs as numpy arrays. Nothing here
talks to Vulkan itself. Needs the ``run`` extra: ``pip install 'tosa-vkshader[run]'``.

The public names are imported on first use: the `run` command's fast lane imports the
modules that find the tools, read the interface and write the scenario before anything
else (the pipeline, the checker, the diagnostics) is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from .api import run
    from .errors import RunError
    from .pipeline import DEFAULT_TIMEOUT, RunResult, run_model

_LAZY = {"run": "api", "RunError": "errors", "DEFAULT_TIMEOUT": "pipeline",
         "RunResult": "pipeline", "run_model": "pipeline"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = ["DEFAULT_TIMEOUT", "RunError", "RunResult", "run", "run_model"]
