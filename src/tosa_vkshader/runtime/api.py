"""``tosa_vkshader.run`` and ``tosa_vkshader.prepare``: the Python doors into running a
model (front doors beside the command line; they sit above the checker, so ``api.py``
does not import them)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import RunError
from .pipeline import prepare as prepare_text
from .pipeline import run_model
from .session import AUTO, DEFAULT_TIMEOUT

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from ..config import Options
    from .session import PreparedModel, RunResult, Validate


def run(model: str | os.PathLike[str], inputs: Sequence[Any], *,
        push_constants: bytes | Mapping[str, str] | None = None,
        device: str | None = None,
        timeout: float = DEFAULT_TIMEOUT, options: Options | None = None,
        write_check: bool = True, validate: Validate = AUTO) -> RunResult:
    """Run a TOSA MLIR model's ops on a Vulkan device and return its results.

    ``model`` is a path to a ``.mlir`` file or the MLIR text itself; ``inputs`` holds one
    numpy array per argument of the entry function, in order, with its element type and
    shape. The model is checked first; then the reference Arm ML SDK toolchain converts
    and runs it (lavapipe unless a GPU is present or ``device`` names one, see
    ``tosa-vkshader run --list-devices``). ``push_constants`` are the raw little-endian
    bytes of the push-constant block of the ops that declare one, or the block's members
    by name (``{"scale": "2.0", "tint": "1,0,0,1"}``), laid out at the offsets the
    shader's block has (std430 or std140, as the SPIR-V says).

    Returns a :class:`RunResult`: a list of ``numpy.ndarray``, one per result of the entry
    function with the result's dtype and shape (``total, difference = run(...)``), whose
    ``findings`` say what the device showed: with ``write_check`` (the default) the
    elements a result never received and writes past a result (VKS962, VKS963), results
    that depend on the output's initial contents (VKS964, a warning); and the Khronos
    validation layer's messages (VKS966, VKS967). ``validate="auto"`` (the default) runs
    under the layer only where the static analysis does not prove an op's buffer
    accesses in bounds, or its shader declares a uniform block the runtime binds as a
    storage buffer (a note, VKS968, says so); False never; True always (core checks and
    GPU-assisted validation), or ``"core"``, ``"gpu-assisted"``, ``"sync"``.
    ``result.ok`` is False when a finding is an error.

    Raises :class:`tosa_vkshader.RunError` (``.diagnostics``, ``.exit_code``) when the model
    has errors, the inputs do not match, the runtime is missing (the ``run`` extra, a
    Vulkan driver, the validation layer) or the run fails or times out.
    """
    text, path = model_text(model)
    return run_model(text, list(inputs), path=path, push_constants=push_constants,
                     device=device, timeout=timeout, options=options,
                     write_check=write_check, validate=validate)


def prepare(model: str | os.PathLike[str], *, device: str | None = None,
            options: Options | None = None) -> PreparedModel:
    """A model made ready to run many times: checked and converted once, then
    ``prepared.run(inputs, ...)`` (the arguments of :func:`run`) as often as needed, or
    ``prepared.run_many([inputs, ...])`` for several sets of inputs in one runner process.
    Use it as a context manager (or call ``close()``) to remove its work directory."""
    text, path = model_text(model)
    return prepare_text(text, path=path, options=options, device=device)


def model_text(model: str | os.PathLike[str]) -> tuple[str, str | None]:
    """The MLIR text of ``model`` (a path, or the text itself) and its path (None for
    text); :class:`RunError` when the file cannot be read."""
    if isinstance(model, os.PathLike) or (isinstance(model, str) and "\n" not in model
                                          and "func.func" not in model):
        path = os.fspath(model)
        try:
            return Path(path).read_text(encoding="utf-8"), path
        except (OSError, UnicodeDecodeError) as exc:
            from ..sources.io import UNREADABLE

            raise RunError([UNREADABLE.at("", f"cannot read {path}: {exc}")]) from exc
    return str(model), None
