"""A prepared model: checked and converted once, then run as many times as asked, each
run with new inputs.

The stages of a run, each in its own module:

    model       the text: entry function, custom ops (model.py, from the MLIR reader)
    convert     model-converter and vgf_dump: the VGF and its interface (processes.py,
                interface.py), once per prepared model
    check       the model's check as the runtime reads it (verdict.py), once
    proof       where the validation layer must show what the static analysis does not
                prove (proof.py), once
    scenario    inputs, sentinel-filled outputs, samplers, push constants (scenario.py)
    runner      scenario-runner, with the validation layer where the proof stage or the
                caller asks for it (processes.py, validation.py)
    outputs     the results as numpy arrays, the write check's findings (layout.py,
                writecheck.py), the validation layer's

What a later stage needs is waited for only when it is needed, and whatever the runner
does not need is done while it works: the converter starts before the model is read;
the configuration, the model's signature, the check, the push-constant blocks and numpy
are loaded and done while the first scenario runner works (the runner is stopped when
they find errors), and so is the proof: where it asks for the validation layer, the
runner is started again with it. Later runs reuse the VGF, the interface, the check, the
proof and the sentinel files: only the input files change. :meth:`PreparedModel.run_many`
runs several sets of inputs in one scenario-runner process, whose start-up and shader
compilation are most of a run's time.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .devices import device_environment
from .errors import RunError
from .processes import Conversion, Runner, signals_held
from .toolchain import Toolchain, find_toolchain
from .workdir import make_workdir, remove_workdir

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    import numpy as np

    from ..diagnostics import Diagnostic, Location
    from ..sources.base import Op, SourceFile
    from .interface import Interface
    from .model import ModelOp, RunModel, Signature
    from .npyfile import Npy
    from .proof import Proof
    from .scenario import Case, PushData
    from .shaders import ShaderOp
    from .validation import Validation
    from .verdict import OptionsSource, Verdict

    # arrays (anything numpy.asarray takes, or Npy), or a function that loads them
    Inputs = Sequence[Any] | Callable[[], Sequence[Any]]
    # the block's bytes, or its members' values by name (NAME -> "1.5" or "1,0,0,1")
    PushConstants = bytes | Mapping[str, str] | None
    # AUTO, or False, True, check names (validation.Validation.parse)
    Validate = bool | str | Sequence[str]

DEFAULT_TIMEOUT = 60.0
# ``validate``'s default: the layer where the static analysis proves nothing (proof.py).
AUTO = "auto"


@dataclass(slots=True)
class RunResult(Sequence["np.ndarray"]):
    """One run's results: ``outputs``, one numpy array per result of the entry function
    (the result itself behaves as that list: ``a, b = tosa_vkshader.run(...)``);
    ``findings``, what the device showed (the write check's, the validation layer's);
    ``notes``, the check's warnings and the run's notes; the device it ran on.

    The results are read back as bytes (``raw``: each with its dtype and shape) and made
    numpy arrays when ``outputs`` is first read, so that a command line that only writes
    them (:meth:`npy`) never loads numpy (60-100 ms of CPU beside the runner)."""

    raw: list[Npy]
    findings: list[Diagnostic] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    device: str | None = None  # as the runner names it
    workdir: Path | None = None  # kept only when asked
    source: SourceFile | None = field(default=None, repr=False)  # the model as checked
    # where each result is written (its op, in the model's file), for what is said of it
    places: list[Location | None] = field(default_factory=list, repr=False)
    _arrays: list[np.ndarray] | None = field(default=None, repr=False)

    @property
    def outputs(self) -> list[np.ndarray]:
        """One numpy array per result, in the entry function's order."""
        if self._arrays is None:
            import numpy as np

            self._arrays = [np.frombuffer(r.data, dtype=r.dtype).reshape(r.shape).copy()
                            for r in self.raw]
        return self._arrays

    def npy(self, index: int) -> bytes:
        """Result ``index`` as the .npy file ``numpy.save`` writes for it."""
        from .npyfile import npy_bytes

        return npy_bytes(self.raw[index])

    def __getitem__(self, index: Any) -> Any:
        return self.outputs[index]

    def __len__(self) -> int:
        return len(self.raw)

    def __iter__(self) -> Iterator[np.ndarray]:
        return iter(self.outputs)

    @property
    def ok(self) -> bool:
        """No finding at error severity."""
        from ..diagnostics import Severity

        return not any(d.severity is Severity.ERROR for d in self.findings)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [*self.notes, *self.findings]


class PreparedModel:
    """A TOSA MLIR model made ready to run: the converter is started at once; the model
    is read, checked and converted once, and :meth:`run` runs it with new inputs as often
    as asked. Close it (or use it as a context manager) to remove its work directory.

    ``options`` are the checker's options, or a function that loads them (called once,
    after the converter has started). ``device`` names a Vulkan device (see
    ``tosa-vkshader run --list-devices``); None lets the loader choose.
    """

    def __init__(self, text: str, *, path: str | None = None,
                 options: OptionsSource = None, device: str | None = None,
                 keep_workdir: bool = False) -> None:
        self._tools: Toolchain = find_toolchain()
        self._device_env: dict[str, str] = {}
        self.path = path
        self.keep_workdir = keep_workdir
        self.workdir = Path(make_workdir(len(text)))
        self._text = text
        self._options = options
        self._model: RunModel | None = None
        self._verdict: Verdict | None = None
        self._notes: list[Diagnostic] = []
        self._interface: Interface | None = None
        self._shader_ops: list[ShaderOp] | None = None
        self._proof: Proof | None = None
        self._prefilled = False
        self._conversion: Conversion | None = None
        self._runner: Runner | None = None
        self._closed = False
        try:
            # HLSL is compiled and embedded before converting (the runtime cannot compile
            # it); anything else is converted as given, at once.
            if "HLSL" in text:
                text = self._hlsl_embedded()
            with signals_held():
                self._conversion = Conversion(self._tools, self.workdir, text,
                                              path or "model.mlir")
            # (the driver manifests are read, or the devices listed, while it converts)
            self._device_env = device_environment(device)
        except BaseException:
            self.close()
            raise

    # -- the stages, each done once, when first needed ------------------------------------
    @property
    def model(self) -> RunModel:
        """The model as `run` reads it; :class:`RunError` when it has nothing to run."""
        return self._read_model()

    def _read_model(self) -> RunModel:
        if self._model is None:
            from .model import RunModel

            self._model = RunModel.read(self._text, self.path)
        return self._model

    @property
    def verdict(self) -> Verdict:
        if self._verdict is None:
            from .verdict import Verdict

            self._verdict = Verdict(self._text, self.path, self._options)
        return self._verdict

    @property
    def interface(self) -> Interface:
        """The VGF's inputs and outputs (the conversion is waited for)."""
        if self._interface is None:
            import json

            from .interface import read_interface

            assert self._conversion is not None
            try:
                dump = self._conversion.result()
                self._interface = read_interface(json.loads(dump.read_text(encoding="utf-8")))
            except RunError:
                self._model_errors_first()
                raise
        return self._interface

    @property
    def signature(self) -> Signature:
        return self.model.signature

    def _model_errors_first(self) -> None:
        """:class:`RunError` with the model's own errors, then with what `run` cannot
        read of it, when there are any: they come before a failure they explain."""
        self.verdict.notes()
        self._read_model()

    def _hlsl_embedded(self) -> str:
        """The text to convert: the model with its HLSL ops' SPIR-V embedded (a note
        each); the model itself (its ops, where findings are placed) stays as written."""
        from .shaders import embed_hlsl, has_hlsl

        if not has_hlsl(self.model):
            return self._text
        self.verdict.notes()  # only a clean model is compiled
        embedded, self._notes = embed_hlsl(self.model, self.verdict.options)
        return embedded

    @property
    def shader_ops(self) -> list[ShaderOp]:
        """Every custom op with its shader's reflection (push-constant block, local
        size), as the run reads them."""
        return self._shaders()

    def _shaders(self) -> list[ShaderOp]:
        if self._shader_ops is None:
            from .shaders import shader_ops

            self._shader_ops = shader_ops(self.model, self.verdict.options)
        return self._shader_ops

    def _ready(self, cases: list[Case]) -> list[Diagnostic]:
        """Everything that must hold before results are given, in the order the user
        needs to hear it: the check's errors, the inputs against the entry function, the
        VGF's bindings against it, the push-constant blocks against the bytes given. The
        check's warnings and the run's notes."""
        from .inputs import match_inputs
        from .interface import match_signature
        from .shaders import push_targets

        try:
            for number, case in enumerate(cases):
                match_inputs(self.signature, case.inputs, number if len(cases) > 1 else None)
            match_signature(self.interface, self.signature)
        except RunError:
            self._model_errors_first()
            raise
        notes = self.verdict.notes() + self._notes
        for case in cases:
            push_targets(self._shaders(), self.interface, case.push_constants)
        return notes

    # -- running ----------------------------------------------------------------------------
    def run(self, inputs: Inputs, *, push_constants: PushConstants = None,
            write_check: bool = True, validate: Validate = AUTO,
            timeout: float = DEFAULT_TIMEOUT) -> RunResult:
        """Run the model on ``inputs``: one array per argument of the entry function, in
        order, each of its element type and shape (or a function that loads them, called
        while the converter works). ``push_constants`` are the raw bytes of the
        push-constant block of the ops that declare one (the same for each), or the
        members' values by name (``{"scale": "2.0", "tint": "1,0,0,1"}``), laid out at the
        offsets each op's block has. ``write_check``: fill every
        output twice (zeros, then all ones) and report what the shader never wrote, wrote
        past a result or read before writing (VKS962-VKS964).
        ``validate``: ``"auto"`` (the default) runs under the Khronos validation layer
        where the static analysis does not prove an op's buffer accesses in bounds, or its
        shader declares a uniform block (a note says so, VKS968); False never; True always
        (core checks and GPU-assisted validation), or ``"core"``, ``"gpu-assisted"``,
        ``"sync"`` as a comma-separated string or names. :class:`RunError` when it cannot
        run."""
        return self.run_many([inputs], push_constants=push_constants,
                             write_check=write_check, validate=validate, timeout=timeout)[0]

    def run_many(self, cases: Sequence[Inputs], *, push_constants: PushConstants = None,
                 write_check: bool = True, validate: Validate = AUTO,
                 timeout: float = DEFAULT_TIMEOUT) -> list[RunResult]:
        """:meth:`run` for several sets of inputs in one scenario-runner process (the
        runner's start-up and shader compilation are paid once); one result each."""
        if self._closed:  # (as a closed file says)
            raise ValueError("run on a closed prepared model")
        if not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, not {timeout}")
        automatic = isinstance(validate, str) and validate == AUTO
        validation = None
        if validate and not automatic:
            from .validation import Validation

            try:
                validation = Validation.parse(validate)
            except ValueError as exc:
                raise TypeError(str(exc)) from None
        planned = [self._case(inputs, push_constants) for inputs in cases]
        if not planned:
            return []
        if any(len(case.inputs) != len(self.interface.inputs) for case in planned):
            self._ready(planned)  # says which (the files cannot even be laid out)
        try:
            # Whether the layer is needed is known once the shaders are analysed, which
            # is done beside the runner (before the rest of the check, which reuses them):
            # the first run starts without it, and only an op the analysis leaves open
            # costs a second start.
            if automatic and self._proof is not None:
                validation = self._proof.validation
            runner = self._start(planned, write_check, validation, timeout)
            if automatic:
                try:
                    proof = self._proven()
                except RunError:
                    self._ready(planned)  # (its errors come first, where it has any)
                    raise
                if proof.validation != validation:
                    validation = proof.validation
                    runner.stop()
                    runner = self._start(planned, write_check, validation, timeout)
            notes = self._ready(planned)
            if automatic:
                notes += [self._placed(note, op) for op, note in proof.notes]
            device = runner.wait()
        finally:
            if self._runner is not None:
                self._runner.stop()
                self._runner = None
        results = self._results(planned, write_check, validation, notes, device)
        if self.keep_workdir:
            for result in results:
                result.workdir = self.workdir
        return results

    def _proven(self) -> Proof:
        """What the run asks the device to prove (the validation layer where the static
        analysis proves nothing), decided once per prepared model."""
        if self._proof is None:
            from .proof import plan

            self._proof = plan(self._shaders())
        return self._proof

    def _case(self, inputs: Inputs, push_constants: PushConstants) -> Case:
        from .npyfile import Npy, from_array
        from .scenario import Case

        data: PushData | None = None
        if isinstance(push_constants, Mapping):  # values by name: each op's block laid out
            from .shaders import push_constants_by_name

            try:
                data = push_constants_by_name(self._shaders(), push_constants)
            except RunError:
                self._model_errors_first()
                raise
        else:
            data = push_constants
        given = inputs() if callable(inputs) else inputs
        return Case(tuple(x if isinstance(x, Npy) else from_array(x) for x in given), data)

    def _start(self, cases: list[Case], write_check: bool, validation: Validation | None,
               timeout: float) -> Runner:
        from .scenario import Plan, write_scenario

        interface = self.interface
        # Which ops take push constants is known from their shaders' reflection, which
        # costs as much as the check: it is done while the runner works, unless the bytes
        # must be sent to some modules of several (with one, it is the target), or are
        # each op's own (values by name, which needed the reflection already).
        push = cases[0].push_constants
        modules = interface.compute_modules
        targets: tuple[tuple[str, int | None], ...] = ()
        if isinstance(push, bytes) and len(modules) == 1:
            targets = ((modules[0], None),)
        elif push is not None:
            from .shaders import push_targets

            targets = push_targets(self._shaders(), interface, push)
        out = self.workdir / "out"
        if out.exists():
            for stale in out.iterdir():
                stale.unlink()
        else:
            out.mkdir()
        copies = 2 if write_check else 1
        write_scenario(self.workdir, interface, Plan(copies, targets), cases,
                       prefilled=self._prefilled)
        self._prefilled = self._prefilled or write_check
        env = {**os.environ, **self._tools.layer_environment(self.workdir),
               **self._device_env}
        if validation is not None:
            from .validation import LOG, find_layer_folder, layer_environment

            (self.workdir / LOG).unlink(missing_ok=True)
            env.update(layer_environment(validation, self.workdir, find_layer_folder(), env))
        with signals_held():
            self._runner = Runner(self._tools, self.workdir, env, timeout)
        return self._runner

    def _results(self, cases: list[Case], write_check: bool,
                 validation: Validation | None, notes: list[Diagnostic],
                 device: str | None) -> list[RunResult]:
        from .layout import read_output
        from .scenario import output_file
        from .writecheck import check_result

        interface, signature = self.interface, self.signature
        source = self.verdict.report().source
        layer_notes, layer_findings = self._validation_report() if validation is not None \
            else ([], [])
        layer_findings += self._race_findings()
        places = [self._op_place(producer[0]) if (producer := self.model.producer(index))
                  else None for index in range(len(signature.results))]
        results = []
        for number in range(len(cases)):
            outputs: list[Npy] = []
            findings: list[Diagnostic] = []
            for index, (result, resource) in enumerate(zip(signature.results,
                                                           interface.outputs, strict=True)):
                dtype, shape = result.dtype or "", result.shape or ()
                raw = [read_output(self.workdir / "out" /
                                   output_file(number, copy, index, resource, len(cases)),
                                   resource, dtype, shape)
                       for copy in range(2 if write_check else 1)]
                if write_check:
                    producer = self.model.producer(index)
                    found = check_result(result, raw[0], raw[1],
                                         self._about(index, cases, number),
                                         self._shader_of(producer[0]) if producer else None)
                    findings.extend(self.located(d, index) for d in found)
                # (the first dispatch's: its output held zeros, as without the check)
                outputs.append(raw[0].result(dtype, shape))
            results.append(RunResult(outputs, findings + layer_findings, notes + layer_notes,
                                     device, source=source, places=places))
        return results

    def _shader_of(self, op: ModelOp) -> ShaderOp | None:
        return next((s for s in self._shaders() if s.op is op), None)

    def _about(self, index: int, cases: list[Case], number: int) -> str:
        """How a finding names result ``index``: the result, its type, the op."""
        result = self.signature.results[index]
        producer = self.model.producer(index)
        written = f", written by {producer[0].name}" if producer else ""
        case = f" (inputs {number})" if len(cases) > 1 else ""
        return f"result_{index}{case} `{result.type.text}`{written}"

    def located(self, diagnostic: Diagnostic, index: int) -> Diagnostic:
        """A finding about result ``index`` placed at the op that writes it (in the
        model's file, when it came from one)."""
        producer = self.model.producer(index)
        return diagnostic if producer is None else self._placed(diagnostic, producer[0])

    def _race_findings(self) -> list[Diagnostic]:
        """What the shaders' SPIR-V proves about the results whatever the device showed: a
        race on workgroup-shared memory (proof.races)."""
        from .proof import races

        return [self._placed(finding, op) for op, finding in races(self._shaders())]

    def _validation_report(self) -> tuple[list[Diagnostic], list[Diagnostic]]:
        """The validation layer's log: the note on what it does not know of the device
        (VKS973), and its findings about the ops."""
        from .rules import VALIDATION_LAYER_OLDER_THAN_DEVICE
        from .validation import LOG, diagnostic, read_log, unknown_to_layer

        ops = self.model.ops
        modules = self.interface.compute_modules
        unknown, messages = unknown_to_layer(read_log(self.workdir / LOG))
        notes = [VALIDATION_LAYER_OLDER_THAN_DEVICE.at(
            "", f"the validation layer does not know {', '.join(unknown)}, which the runner "
                "enabled on this device; it validated the rest")] if unknown else []
        found = []
        for message in messages:
            op = None
            if len(ops) == 1:
                op = ops[0]
            elif message.dispatch is not None and len(modules) == len(ops):
                op = ops[message.dispatch % len(ops)]
            if op is None:
                found.append(diagnostic(message, "the model", in_source=False))
                continue
            # the runtime compiles GLSL itself, with its lines; anything else is SPIR-V
            glsl = op.attrs is not None and op.attrs.get("shader_language") == "GLSL"
            found.append(self._placed(diagnostic(message, op.name, in_source=glsl), op))
        return notes, found

    def _placed(self, finding: Diagnostic, op: ModelOp) -> Diagnostic:
        """``finding`` located in the model's file: at its pointer inside the op's
        attributes, else at the op."""
        checked = self._checked_op(op)
        if checked is None or checked.context is None:
            return finding
        place = checked.locate(finding) if finding.pointer else None
        return finding.located(place or checked.context.place("op"))

    def _op_place(self, op: ModelOp) -> Location | None:
        """Where ``op`` is in the model's file."""
        checked = self._checked_op(op)
        return checked.context.place("op") if checked is not None and \
            checked.context is not None else None

    def _checked_op(self, op: ModelOp) -> Op | None:
        """``op`` as the check read it (its context places things in the file)."""
        source = self.verdict.report().source
        return next((o for o in source.ops if o.context is not None
                     and o.context.spans.get("op", (-1, -1))[0] == op.site.start),
                    None) if source is not None else None

    def close(self) -> None:
        """Stop what still runs and remove the work directory (unless it is kept). Ctrl-C
        or SIGTERM arriving meanwhile waits until it is done: an interrupted removal left
        the folder, a sentinel file the size of each output in it, behind."""
        self._closed = True
        with signals_held():
            if self._conversion is not None:
                self._conversion.stop()
            if not self.keep_workdir:
                remove_workdir(str(self.workdir))

    def __enter__(self) -> PreparedModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
