"""The end of a run that ran, shared by `run`'s usual path and its fast lane: the
warnings, OUTDIR/result_N.npy written (as numpy.save writes them, without numpy when the
results are bytes), what was written, the device, and the comparison with ``--expect``;
or the diagnostics of a run that failed. No argparse here: the fast lane loads this
module while the scenario runner works.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ._common import EXIT_OK, EXIT_USAGE, print_diagnostics

if TYPE_CHECKING:
    import argparse
    from types import SimpleNamespace

    from ..runtime import RunError, RunResult

    Arguments = argparse.Namespace | SimpleNamespace  # the fast lane reads them itself


def usage(message: str) -> int:
    print(f"tosa-vkshader run: {message}", file=sys.stderr)
    return EXIT_USAGE


def report_error(args: Arguments, error: RunError) -> int:
    """The diagnostics of a run that failed, with the summary; the exit status."""
    print_diagnostics(args.model, error.diagnostics, summary=True)
    return error.exit_code


def report(args: Arguments, result: RunResult) -> int:
    """The rest of a run that ran: its warnings, OUTDIR/result_N.npy written and named,
    the device, and the comparison with --expect (:class:`RunError` on a mismatch).
    ``result.outputs`` are numpy arrays or, from the fast lane, :class:`HostArray`."""
    from ..runtime import RunError

    print_diagnostics(args.model, result.notes)
    out = Path(args.output_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for index, array in enumerate(result.outputs):
            _save(out / f"result_{index}.npy", array)
    except OSError as exc:
        return usage(f"cannot write to {out}: {exc.strerror or exc}")
    for index, array in enumerate(result.outputs):
        print(f"result_{index}: {array.dtype} {list(array.shape)} -> "
              f"{out / f'result_{index}.npy'}")
    print(f"ran on {result.device or 'the default Vulkan device'}")
    if result.workdir is not None:
        print(f"work directory kept: {result.workdir}", file=sys.stderr)
    if not args.expect:
        return EXIT_OK
    from ..runtime.compare import compare_results

    expected = [load_npy(name, "--expect") for name in args.expect]
    if any(a is None for a in expected):
        return EXIT_USAGE
    problems = compare_results([_numpy_array(a) for a in result.outputs], expected,
                               rtol=args.rtol, atol=args.atol)
    if problems:
        raise RunError(problems)
    print(f"all {len(expected)} result(s) match the expected arrays")
    return EXIT_OK


def load_npy(name: str, what: str, *, quiet: bool = False):
    from ..runtime.layout import load_numpy

    load_numpy()
    import numpy as np

    try:
        return np.load(name, allow_pickle=False)
    except (OSError, ValueError) as exc:
        message = f"cannot read {what} {name}: {getattr(exc, 'strerror', None) or exc}"
        if quiet:
            return message
        print(f"tosa-vkshader run: {message}", file=sys.stderr)
        return None


def _save(path: Path, array) -> None:
    """``array`` as numpy.save writes it, atomically (a reader never sees half a file);
    not synced to disk: a result is made again by running again, and one fsync costs
    4 ms on ext4 here, a third of what `run` adds to the tools' time."""
    from ..fsutil import write_atomic
    from ..runtime.npyfile import HostArray, npy_bytes

    if isinstance(array, HostArray):
        data = npy_bytes(array)
    else:
        import io

        import numpy as np

        buffer = io.BytesIO()
        np.save(buffer, array)
        data = buffer.getvalue()
    write_atomic(path, data, durable=False)


def _numpy_array(array):
    """A result as numpy's array (the fast lane keeps them as bytes until compared)."""
    from ..runtime.npyfile import HostArray

    if not isinstance(array, HostArray):
        return array
    import numpy as np

    return np.frombuffer(array.data, dtype=array.dtype).reshape(array.shape)
