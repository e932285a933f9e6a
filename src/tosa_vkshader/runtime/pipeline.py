"""check -> convert -> read the interface -> write the scenario -> run -> numpy.

Every step is one of the reference tools; this module only decides what to hand them:
the model (HLSL ops compiled and embedded first), the input files in the VGF's layout, the
scenario and the Vulkan environment; and it reads the outputs back with the result types
of the entry function.

The converter is started first, on the model as given; what the later steps need (the
model's signature, the inputs, the modules that write the scenario) is imported and done
while it works, and the check and numpy while the scenario runner works.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Options
from ..diagnostics import Diagnostic, Severity
from .errors import RunError
from .toolchain import (
    Toolchain,
    default_driver_environment,
    find_toolchain,
    require_vulkan_driver,
)
from .workdir import make_workdir, remove_workdir

if TYPE_CHECKING:
    from typing import Any

    import numpy as np

    # arrays (anything numpy.asarray takes, or HostArray), or a function that loads them
    Inputs = Sequence[Any] | Callable[[], Sequence[Any]]

DEFAULT_TIMEOUT = 60.0


@dataclass(slots=True)
class RunResult:
    outputs: list[np.ndarray]
    notes: list[Diagnostic] = field(default_factory=list)  # warnings and notes
    device: str | None = None  # as the runner names it
    workdir: Path | None = None  # kept only when asked



def run_model(text: str, inputs: Inputs, *, path: str | None = None,
              push_constants: bytes | None = None, device: str | None = None,
              timeout: float = DEFAULT_TIMEOUT, options: Options | None = None,
              keep_workdir: bool = False) -> RunResult:
    """Run the MLIR model ``text`` on ``inputs`` (arrays, or a function that loads them
    while the converter runs); :class:`RunError` when it cannot.

    The check decides whether results are given: a model with errors never produces any,
    and its diagnostics are reported before any other failure. It runs while the scenario
    runner works (the runner is stopped when the check finds errors), and so does loading
    numpy for the outputs (inputs are written from bytes), so that a clean model costs
    little more than the tools' own time.
    """
    options = runtime_reading(options or Options())
    tools = find_toolchain()
    device_env = _device_environment(device)
    verdict = _Verdict(text, path, options)
    try:
        return _run(text, inputs, verdict, tools, device_env, push_constants, timeout,
                    options, keep_workdir)
    except RunError:
        verdict.notes()  # the model's own errors come first
        raise


# What the reference converter never reads: `push_constants` is dropped from the VGF, and
# the run checks the bytes it is given against the shader's block instead (VKS957).
_NOT_READ_BY_THE_RUNTIME = ("VKS422", "VKS423")
# What the run itself takes care of: it gives the runner the push-constant size and bytes
# that the VGF lacks, so the warning that the shader would read zeros does not apply.
_HANDLED_BY_THE_RUN = ("VKS250",)


def runtime_reading(options: Options) -> Options:
    """The check as the runtime sees the model: ``workgroup_sizes`` is a dispatch count,
    problems with attributes the runtime ignores are warnings, and what the run handles
    itself is a note (unless configured)."""
    severity = {code: Severity.WARNING for code in _NOT_READ_BY_THE_RUNTIME}
    severity.update({code: Severity.INFO for code in _HANDLED_BY_THE_RUN})
    return options.with_overrides(workgroup_semantics="dispatch",
                                  severity={**severity, **options.severity})


class _Verdict:
    """The model's check, done once, when first asked for."""

    def __init__(self, text: str, path: str | None, options: Options) -> None:
        self._args = (text, path, options)
        self._notes: list[Diagnostic] | None = None
        self._error: RunError | None = None

    def notes(self) -> list[Diagnostic]:
        """The warnings to show; :class:`RunError` with every diagnostic on errors (the
        same one each time: the check is not run again)."""
        if self._error is not None:
            raise self._error
        if self._notes is None:
            try:
                self._notes = check_model(*self._args)
            except RunError as error:
                self._error = error
                raise
        return self._notes


def _run(text: str, inputs: Inputs, verdict: _Verdict, tools: Toolchain,
         device_env: dict[str, str], push_constants: bytes | None, timeout: float,
         options: Options, keep_workdir: bool) -> RunResult:
    workdir = Path(make_workdir(len(text)))
    try:
        result = _run_in(workdir, text, inputs, verdict, tools, device_env, push_constants,
                         timeout, options)
    except BaseException:
        if not keep_workdir:
            remove_workdir(str(workdir))
        raise
    if keep_workdir:
        result.workdir = workdir
    else:
        remove_workdir(str(workdir))
    return result


def _run_in(workdir: Path, text: str, inputs: Inputs, verdict: _Verdict, tools: Toolchain,
            device_env: dict[str, str], push_constants: bytes | None, timeout: float,
            options: Options) -> RunResult:
    from .processes import Runner, finish_conversion, start_conversion, stop_conversion

    converter = start_conversion(tools, text, workdir)
    try:  # while the converter works
        from .inputs import matched_inputs
        from .interface import match_signature, read_interface
        from .layout import load_numpy, read_output
        from .model import custom_op_texts, read_signature
        from .scenario import output_file, write_inputs, write_scenario
        from .shaders import push_targets, shader_ops

        embedded, notes = _hlsl_embedded(text, verdict, options)
        if embedded is not text:  # converted again, with the SPIR-V we compiled
            stop_conversion(converter)
            text = embedded
            converter = start_conversion(tools, text, workdir)
        signature = read_signature(text)
        arrays = matched_inputs(signature, inputs() if callable(inputs) else inputs)
    except BaseException:
        stop_conversion(converter)
        raise
    interface = read_interface(finish_conversion(tools, converter, workdir))
    match_signature(interface, signature)
    write_inputs(workdir, interface, arrays)
    # Which ops take push constants is known from their shaders' reflection, which costs
    # as much as the check: it is done while the runner works, unless the bytes must be
    # sent to some ops of several (with one op, its module is the target).
    ops = shader_ops(text, options) if push_constants is not None and \
        len(custom_op_texts(text)) > 1 else None
    targets: tuple[str, ...] = interface.compute_modules
    if ops is not None:
        targets = push_targets(ops, interface, push_constants)
    write_scenario(workdir, interface, push_constants, targets)
    env = {**os.environ, **tools.layer_environment(workdir), **device_env}
    runner = Runner(tools, workdir, env, timeout)
    try:
        notes = verdict.notes() + notes
        if ops is None:  # the blocks must match the bytes given (or their absence)
            push_targets(shader_ops(text, options), interface, push_constants)
        load_numpy()  # for the outputs
        ran_on = runner.wait()
    finally:
        runner.stop()
    outputs = [read_output(workdir / "out" / output_file(index, resource), resource,
                           result.dtype or "", result.shape or ())
               for index, (result, resource) in enumerate(
                   zip(signature.results, interface.outputs, strict=True))]
    return RunResult(outputs, notes, ran_on)


def _hlsl_embedded(text: str, verdict: _Verdict,
                   options: Options) -> tuple[str, list[Diagnostic]]:
    """The model with its HLSL ops' SPIR-V embedded (the reference runtime cannot compile
    HLSL), and the notes that say so; only a clean model is compiled."""
    from .model import custom_op_texts
    from .shaders import embed_hlsl, shader_ops

    if not any(op.attrs.get("shader_language") == "HLSL" for op in custom_op_texts(text)):
        return text, []
    verdict.notes()
    return embed_hlsl(text, shader_ops(text, options), options)


def _device_environment(device: str | None) -> dict[str, str]:
    if device is None:
        require_vulkan_driver()
        return default_driver_environment()
    from .devices import select_device

    return select_device(device).environment()


def check_model(text: str, path: str | None, options: Options) -> list[Diagnostic]:
    """The model's warnings (not its notes) under ``options`` (as :func:`runtime_reading`
    makes them); :class:`RunError` with every diagnostic when it has errors."""
    from ..api import validate

    report = validate(text, options, path=path if path and path.endswith(".mlir")
                      else "model.mlir")
    if not report.ok:
        raise RunError(report.diagnostics)
    # The check's notes (how workgroup_sizes is read...) are for `check`; warnings stay.
    return [d for d in report.diagnostics if d.severity is not Severity.INFO]
