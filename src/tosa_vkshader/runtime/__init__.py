"""Run a model's custom shader ops for real, through the reference Arm ML SDK toolchain.

model-converter (TOSA MLIR -> VGF) -> vgf_dump (the model interface) -> a scenario with
the inputs in the VGF's layout and the outputs filled with sentinels -> scenario-runner
on a Vulkan device (lavapipe unless a GPU is present or ``device`` says otherwise) -> the
outputs as numpy arrays, and what the device showed (elements never written, writes past
a result, the validation layer's messages). Nothing here talks to Vulkan itself. Needs
the ``run`` extra (``pip install '.[run]'`` in a checkout).

``run`` runs a model once; ``prepare`` checks and converts it once for many runs.
"""

from __future__ import annotations

from .api import prepare, run
from .errors import RunError
from .pipeline import run_model
from .session import DEFAULT_TIMEOUT, PreparedModel, RunResult

__all__ = ["DEFAULT_TIMEOUT", "PreparedModel", "RunError", "RunResult", "prepare", "run",
           "run_model"]
