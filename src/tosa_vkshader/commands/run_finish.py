"""The fast lane's run once the scenario runner works: everything the usual path decides
before it gives results, in the usual path's order, then `run`'s own report.

While the runner works: the configuration, the entry function's signature against the
inputs and the VGF, the check (errors stop the runner and are the only diagnostics, exit
1, nothing written), the push-constant block against the bytes given, and the modules
the end needs (numpy only for ``--expect``). Then the runner's exit, and the results read
back as bytes: OUTDIR/result_N.npy is written without numpy.
"""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

from ..config import Options
from ..diagnostics import Diagnostic
from ..runtime.errors import RunError
from ..runtime.inputs import matched_inputs
from ..runtime.interface import Interface, match_signature
from ..runtime.layout import load_numpy, read_result
from ..runtime.model import Signature, read_signature
from ..runtime.npyfile import HostArray
from ..runtime.pipeline import DEFAULT_TIMEOUT, RunResult, check_model, runtime_reading
from ..runtime.scenario import output_file
from ..runtime.shaders import push_targets, shader_ops
from ..runtime.spawn import Process
from ..runtime.tool_output import runner_outcome
from ._common import EXIT_USAGE, options_from
from .run_report import report, report_error


def finish_run(args: SimpleNamespace, text: str, inputs: list[HostArray],
               interface: Interface, push: bytes | None, workdir: Path, runner: Process,
               started: float) -> int:
    """The exit status of the run whose ``runner`` started at ``started``."""
    options = options_from(args)
    if options is None:  # printed
        return EXIT_USAGE
    options = runtime_reading(options)
    model_path = args.model if args.model.endswith(".mlir") else None
    try:
        signature, notes = _verdict(text, model_path, options, inputs, interface)
        push_targets(shader_ops(text, options), interface, push)
        _preload_the_end(notes, bool(args.expect))
        timeout = args.timeout or DEFAULT_TIMEOUT
        returncode = runner.wait(timeout - (time.monotonic() - started))
        expired = returncode is None
        device = runner_outcome(runner.kill() if expired else returncode, expired,
                                workdir / "runner.log", timeout)
        outputs = [read_result(workdir / "out" / output_file(index, resource), resource,
                               result.dtype or "", result.shape or ())
                   for index, (result, resource) in enumerate(
                       zip(signature.results, interface.outputs, strict=True))]
        return report(args, RunResult(outputs, notes, device,
                                           workdir if args.keep_workdir else None))
    except RunError as error:
        return report_error(args, error)


def _verdict(text: str, path: str | None, options: Options, inputs: list[HostArray],
             interface: Interface) -> tuple[Signature, list[Diagnostic]]:
    """The entry function and the check's warnings; :class:`RunError` with the check's
    errors, or else with what the usual path finds first: the signature, the inputs, the
    VGF's bindings."""
    try:
        signature = read_signature(text)
        matched_inputs(signature, inputs)
        match_signature(interface, signature)
    except RunError:
        check_model(text, path, options)  # the model's own errors come first
        raise
    return signature, check_model(text, path, options)


def _preload_the_end(notes: list[Diagnostic], expect: bool) -> None:
    """What the end of the run needs, loaded now while the runner works rather than
    after it: the atomic write (tempfile) and removing the work directory (shutil), the
    rendering of the warnings there are, numpy and the comparison for ``--expect``."""
    import shutil  # noqa: F401
    import tempfile  # noqa: F401 (fsutil.write_atomic imports it when first called)

    from .. import fsutil  # noqa: F401

    if notes:
        from ..api import Report  # noqa: F401
        from ..report import text  # noqa: F401
    if expect:
        load_numpy()
        from ..runtime import compare  # noqa: F401
