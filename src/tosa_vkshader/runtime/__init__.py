"""Run a model's custom shader ops for real, through the reference Arm ML SDK toolchain.

model-converter (TOSA MLIR -> VGF) -> vgf_dump (the model interface) -> a scenario with
the inputs in the VGF's layout -> scenario-runner on a Vulkan device (lavapipe unless a
GPU is present or ``device`` says otherwise) -> the outputs as numpy arrays. Nothing here
talks to Vulkan itself. Needs the ``run`` extra: ``pip install 'tosa-vkshader[run]'``.
"""

from __future__ import annotations

from .api import run
from .errors import RunError
from .pipeline import DEFAULT_TIMEOUT, RunResult, run_model

__all__ = ["DEFAULT_TIMEOUT", "RunError", "RunResult", "run", "run_model"]
