"""A counterexample, as `verify` reports it and leaves it behind.

``OUTDIR/counterexample/`` receives ``in_K.npy`` (one per argument), ``expected_K.npy``
(the reference's results) and ``got_K.npy`` (the device's), ``push_constants.bin`` when
the op has push constants, ``model.mlir`` when the model that ran is not a file the
user has (a model with dynamic dimensions, made static; MLIR text given to the API), and
``command.txt``: the `tosa-vkshader run` command that runs the op on those inputs again
and compares with the expected results, with the same tolerance, write check and
validation, so it fails the same way.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np

    from ..runtime.compare import Tolerance
    from .evaluate import Failure


@dataclass(frozen=True, slots=True)
class Counterexample:
    """The minimal failing inputs found and what they gave.

    ``inputs``: one array per argument, shrunk; ``expected`` the reference's results and
    ``got`` the device's on them; ``failure`` says how they differ (``kind``
    ``mismatch`` with ``result`` and ``mismatch``, or the code of the device's finding
    with ``findings``); ``original``: the failing example as first drawn; ``steps``: the
    simplifications that led from one to the other; ``replayed``: it came from the
    failure database; ``sizes``: the sizes of the model's dynamic dimensions.
    ``folder`` and ``command`` are where it was written and the `run` command that shows
    it again (None when nothing was written)."""

    inputs: tuple[np.ndarray, ...]
    expected: list[np.ndarray]
    got: list[np.ndarray]
    failure: Failure
    original: tuple[np.ndarray, ...]
    steps: int
    replayed: bool = False
    sizes: tuple[int, ...] = ()  # of the dynamic dimensions (none for a static model)
    folder: Path | None = None
    command: str | None = None


@dataclass(frozen=True, slots=True)
class RunCommand:
    """What the `run` command needs beside the counterexample's files: the model's own
    arguments (the file, or an op JSON with ``--operands``/``--results``) unless the
    model that ran must be written out, and the options that decide the verdict."""

    model: Sequence[str] | None
    tolerance: Tolerance
    write_check: bool = True
    validate: bool | str | Sequence[str] = "auto"
    device: str | None = None


def write_counterexample(folder: Path, counterexample: Counterexample, how: RunCommand, *,
                         push_constants: bytes | None, model_text: str | None) -> str:
    """The files in ``folder`` (made when missing, stale files of an earlier one
    removed); the `run` command that reproduces the counterexample, also written to
    ``command.txt``. OSError when the folder cannot be written."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*"):
        if stale.is_file() and (stale.suffix in (".npy", ".bin") or stale.name in (
                "command.txt", "model.mlir")):
            stale.unlink()
    for prefix, arrays in (("in", counterexample.inputs), ("expected", counterexample.expected),
                           ("got", counterexample.got)):
        for index, array in enumerate(arrays):
            _save(folder / f"{prefix}_{index}.npy", array)
    argv = ["tosa-vkshader", "run"]
    if how.model is None or model_text is not None:
        assert model_text is not None
        _write(folder / "model.mlir", model_text.encode("utf-8"))
        argv.append(str(folder / "model.mlir"))
    else:
        argv.extend(how.model)
    for index in range(len(counterexample.inputs)):
        argv += ["-i", str(folder / f"in_{index}.npy")]
    for index in range(len(counterexample.expected)):
        argv += ["--expect", str(folder / f"expected_{index}.npy")]
    if push_constants is not None:
        _write(folder / "push_constants.bin", push_constants)
        argv += ["--push-constants", str(folder / "push_constants.bin")]
    argv += _verdict_options(how)
    command = shlex.join(argv)
    _write(folder / "command.txt", (command + "\n").encode("utf-8"))
    return command


def _verdict_options(how: RunCommand) -> list[str]:
    tolerance = how.tolerance
    argv = ["--ulp", str(tolerance.ulp)] if tolerance.ulp is not None else \
        ["--rtol", repr(tolerance.rtol), "--atol", repr(tolerance.atol)]
    if not how.write_check:
        argv.append("--no-write-check")
    if how.validate is True:
        argv.append("--validate")
    elif how.validate is False:
        argv.append("--no-validate")
    elif how.validate != "auto":  # (the layer where nothing proves the accesses: run's too)
        checks = how.validate if isinstance(how.validate, str) else ",".join(how.validate)
        argv += ["--validate-checks", checks]
    if how.device is not None:
        argv += ["--device", how.device]
    return argv


def _save(path: Path, array: np.ndarray) -> None:
    import io

    import numpy as np

    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    _write(path, buffer.getvalue())


def _write(path: Path, data: bytes) -> None:
    from ..fsutil import write_atomic

    write_atomic(path, data, durable=False)
