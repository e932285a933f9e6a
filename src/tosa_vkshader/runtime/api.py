"""``tosa_vkshader.run``: the Python door into running a model (a front door beside the
command line; it sits above the checker, so ``api.py`` does not import it)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Options
from .errors import RunError
from .pipeline import run_model

if TYPE_CHECKING:
    from typing import Any


def run(model: str | os.PathLike[str], inputs: Sequence[Any], *,
        push_constants: bytes | None = None, device: str | None = None,
        timeout: float = 60.0, options: Options | None = None) -> list[Any]:
    """Run a TOSA MLIR model's ops on a Vulkan device and return its results.

    ``model`` is a path to a ``.mlir`` file or the MLIR text itself; ``inputs`` holds one
    numpy array per argument of the entry function, in order, with its element type and
    shape. The model is checked first; then the reference Arm ML SDK toolchain converts
    and runs it (lavapipe unless a GPU is present or ``device`` names one, see
    ``tosa-vkshader run --list-devices``). ``push_constants`` are the raw little-endian
    bytes of the push-constant block of the ops that declare one. Returns one
    ``numpy.ndarray`` per result of the entry function, with the result's dtype and shape.

    Raises :class:`tosa_vkshader.RunError` (``.diagnostics``, ``.exit_code``) when the model
    has errors, the inputs do not match, the runtime is missing (``pip install
    'tosa-vkshader[run]'``, a Vulkan driver) or the run fails or times out.
    """
    path: str | None = None
    if isinstance(model, os.PathLike) or (isinstance(model, str) and "\n" not in model
                                          and "func.func" not in model):
        path = os.fspath(model)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            from ..sources.io import UNREADABLE

            raise RunError([UNREADABLE.at("", f"cannot read {path}: {exc}")]) from exc
    else:
        text = model
    return run_model(text, list(inputs), path=path, push_constants=push_constants,
                     device=device, timeout=timeout, options=options).outputs
