"""`verify`: property-test a model's ops on the device against a numpy reference.

1. The model is prepared once (checked, converted; for dynamic dimensions once per
   combination of sizes, :mod:`.shapes`); the reference is loaded.
2. The failures saved for this model (:mod:`.database`) and ``examples`` new examples,
   drawn by hypothesis from the operand types (:mod:`.strategies`, constrained by the
   reference module's ``inputs(st)``) with the seed, are judged in batches
   (:mod:`.evaluate`): the reference on the host, the op in one scenario-runner
   process per batch, with the write check and the validation layer as asked.
3. The simplest failing example is shrunk in batches (:mod:`.shrink`), then run once
   more alone, as `run` would, for its results and findings; it is saved to the database
   and written with the `run` command that reproduces it (:mod:`.counterexample`).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..runtime.compare import Tolerance
from ..runtime.session import AUTO
from .counterexample import Counterexample, RunCommand, write_counterexample
from .defaults import DEFAULT_DATABASE, FLOAT16_RTOL
from .errors import VerifyError, require_hypothesis

if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Mapping, Sequence

    from ..diagnostics import Diagnostic
    from ..runtime import PreparedModel
    from ..runtime.model import Argument, Signature
    from ..runtime.verdict import OptionsSource
    from ..sources.base import SourceFile
    from .domains import Domain
    from .evaluate import Evaluator, Example, Outcome
    from .reference import Reference
    from .shapes import Sizes

# examples judged per batch of the first pass (the evaluator cuts them smaller by bytes)
FIRST_PASS_BATCH = 256


@dataclass(slots=True)
class VerifyResult:
    """What `verify` found: ``ok`` when no example failed; otherwise ``counterexample``.

    ``examples``: the examples judged (the failures replayed from the database among
    them: ``replayed``); ``seed``: the seed that draws the same examples again;
    ``diagnostics``: the check's warnings, the device's warnings and, for a
    counterexample, VKS970 and the device's errors on it; ``runner_processes`` and
    ``seconds``: what it cost, ``examples_seconds`` of it until the examples were judged
    (preparing the model included; the rest is shrinking and writing the
    counterexample)."""

    examples: int
    seed: int
    counterexample: Counterexample | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    device: str | None = None
    runner_processes: int = 0
    seconds: float = 0.0
    examples_seconds: float = 0.0
    replayed: int = 0
    source: SourceFile | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return self.counterexample is None

    def summary(self) -> str:
        """The verdict in a few lines (the counterexample's inputs and values included)."""
        from .reference import describe_array

        rate = self.examples / self.examples_seconds if self.examples_seconds else 0.0
        lines = []
        found = self.counterexample
        if found is None:
            lines.append(f"no counterexample in {self.examples} example(s) (seed {self.seed})")
        else:
            replay = " (replayed from the failure database)" if found.replayed else ""
            lines.append(f"counterexample{replay} after {self.examples} example(s) (seed "
                         f"{self.seed}), shrunk in {found.steps} step(s):")
            for index, array in enumerate(found.inputs):
                lines.append(f"  input {index}: {describe_array(array)}")
            mismatch = found.failure.mismatch
            if mismatch is not None:
                ulp = "" if mismatch.ulp is None else \
                    (", one is NaN" if mismatch.ulp == float("inf")
                     else f", {mismatch.ulp:.0f} ULP apart")
                lines.append(f"  result_{mismatch.result}{list(mismatch.first)}: expected "
                             f"{mismatch.expected!s}, got {mismatch.got!s}{ulp} "
                             f"({mismatch.count} of {mismatch.size} element(s) differ)")
            else:
                lines.append(f"  the device showed {found.failure.kind}")
            if found.folder is not None:
                lines.append(f"  written to {found.folder}")
            if found.command is not None:
                lines.append(f"  reproduce: {found.command}")
        shrinking = f", {self.seconds - self.examples_seconds:.1f} s shrinking" \
            if found is not None else ""
        lines.append(f"{self.examples} example(s) in {self.examples_seconds:.1f} s "
                     f"({rate:.0f}/s){shrinking}, {self.runner_processes} runner "
                     f"process(es), on {self.device or 'the default Vulkan device'}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


def verify(model: str | os.PathLike[str], reference: Callable[..., Any] | str,
           examples: int = 100, *, seed: int | None = None, rtol: float | None = None,
           atol: float | None = None, ulp: int | None = None, allow_nan: bool = True,
           inputs: Callable[[Any], Any] | None = None,
           push_constants: bytes | Mapping[str, str] | None = None, write_check: bool = True,
           validate: bool | str | Sequence[str] = AUTO, device: str | None = None,
           options: OptionsSource = None,
           database: str | os.PathLike[str] | None = DEFAULT_DATABASE,
           output_dir: str | os.PathLike[str] | None = None,
           timeout: float | None = None) -> VerifyResult:
    """Run the model's ops on ``examples`` generated inputs and compare every result with
    ``reference``; shrink a failure to a minimal counterexample.

    ``model`` is a path to a ``.mlir`` file or its text. ``reference`` is a function (one
    numpy array per argument of the entry function, in order, plus each push-constant
    member by name; it returns an array or a tuple of arrays, one per result) or
    ``"ref.py:fn"``; such a module may define ``inputs(st)`` to constrain the inputs
    (``inputs`` here does the same for a function). ``seed`` draws the same examples
    again (random when None: the result says which). Float results must match within
    ``rtol``/``atol`` (default 1e-5, 1e-6; rtol 1e-3 when a result is float16) or
    ``ulp``; integers exactly. ``allow_nan``
    False keeps NaN out of the inputs. ``write_check``, ``validate``, ``device``,
    ``push_constants``, ``options`` and ``timeout`` are those of ``tosa_vkshader.run``,
    for every example. ``database`` keeps the failures found (None: none kept or
    replayed); ``output_dir`` receives ``counterexample/`` with the inputs, the expected
    and the device's results and the `run` command that reproduces it.

    Returns a :class:`VerifyResult`. Raises :class:`~tosa_vkshader.RunError` when the
    model cannot run (its diagnostics say why) and :class:`VerifyError` (a RunError) when
    the reference cannot be used or hypothesis is missing.
    """
    from ..runtime.api import model_text

    text, path = model_text(model)
    return run_verification(
        text, path, reference, examples, seed=seed, rtol=rtol, atol=atol, ulp=ulp,
        allow_nan=allow_nan, inputs=inputs,
        push_constants=push_constants, write_check=write_check, validate=validate,
        device=device, options=options, database=database, output_dir=output_dir,
        timeout=timeout, model_arguments=[path] if path is not None else None)


def tolerance_of(results: Sequence[Argument], rtol: float | None, atol: float | None,
                 ulp: int | None) -> Tolerance:
    """The tolerance asked for, else the default for the ``results``' types: that of
    `run --expect` (rtol 1e-5, atol 1e-6), with rtol :data:`FLOAT16_RTOL` when a result is
    float16 (1e-5 is below its precision: one float16 step is about 1e-3). ValueError
    when ``ulp`` comes with rtol or atol."""
    if ulp is not None:
        if rtol is not None or atol is not None:
            raise ValueError("give either rtol/atol or ulp, not both")
        if ulp < 0:
            raise ValueError(f"ulp must be 0 or more, not {ulp}")
        return Tolerance(ulp=ulp)
    if rtol is None and any(result.dtype == "float16" for result in results):
        rtol = FLOAT16_RTOL
    return Tolerance.given(rtol, atol)


def run_verification(text: str, path: str | None, reference: Callable[..., Any] | str,
                     examples: int, *, seed: int | None, rtol: float | None = None,
                     atol: float | None = None, ulp: int | None = None,
                     allow_nan: bool = True, inputs: Callable[[Any], Any] | None = None,
                     push_constants: bytes | Mapping[str, str] | None = None,
                     write_check: bool = True, validate: bool | str | Sequence[str] = AUTO,
                     device: str | None = None,
                     options: OptionsSource = None,
                     database: str | os.PathLike[str] | None = DEFAULT_DATABASE,
                     output_dir: str | os.PathLike[str] | None = None,
                     timeout: float | None = None,
                     model_arguments: Sequence[str] | None = None) -> VerifyResult:
    """:func:`verify` on MLIR ``text`` (from ``path``); ``model_arguments`` are how the
    `run` command names the model (None: the model that ran is written out)."""
    require_hypothesis()
    from .reference import Reference, load_reference

    if examples < 1:
        raise ValueError(f"examples must be 1 or more, not {examples}")
    loaded = load_reference(reference) if isinstance(reference, str) else \
        Reference(reference, getattr(reference, "__qualname__", repr(reference)), inputs)
    if inputs is not None and isinstance(reference, str):
        loaded = Reference(loaded.function, loaded.name, inputs)
    verification = _Verification(text, path, loaded, (rtol, atol, ulp), allow_nan,
                                 push_constants, write_check, validate, device, options,
                                 timeout)
    try:
        return verification.run(examples, seed, database, output_dir, model_arguments)
    finally:
        verification.close()


class _Verification:
    def __init__(self, text: str, path: str | None, reference: Reference,
                 tolerance: tuple[float | None, float | None, int | None], allow_nan: bool,
                 push_constants: bytes | Mapping[str, str] | None,
                 write_check: bool, validate: bool | str | Sequence[str],
                 device: str | None, options: OptionsSource, timeout: float | None) -> None:
        from ..runtime.model import read_entry
        from .evaluate import Settings

        self.text, self.path, self.reference = text, path, reference
        self.allow_nan, self.device, self.options = allow_nan, device, options
        self.signature: Signature = read_entry(text)
        self.given_push_constants = push_constants
        self.settings = Settings(tolerance_of(self.signature.results, *tolerance), None, {},
                                 write_check, validate, timeout)
        self._prepared: dict[tuple[int, ...], PreparedModel] = {}
        self.sizes: Sizes = self._sizes()

    # -- the model, prepared once per combination of sizes ----------------------------------
    def _sizes(self) -> Sizes:
        from .shapes import Sizes, model_sizes, op_dispatch

        static = model_sizes(self.signature, None, None)
        if not static.free:
            return static
        # every size 1 first: always a combination, and the shader's local size is read
        # from it
        ones = (1,) * len(static.axes)
        provisional = Sizes(static.axes, (ones,))
        self._prepared[ones] = self._prepare(provisional.specialise(self.text, ones))
        local, dispatch = op_dispatch(self._prepared[ones].shader_ops)
        return model_sizes(self.signature, local, dispatch)

    def _prepare(self, text: str) -> PreparedModel:
        from ..runtime.pipeline import prepare

        return prepare(text, path=self.path, options=self.options, device=self.device)

    def prepared(self, sizes: tuple[int, ...]) -> PreparedModel:
        found = self._prepared.get(sizes)
        if found is None:
            found = self._prepared[sizes] = self._prepare(self.model_text(sizes))
        return found

    def model_text(self, sizes: tuple[int, ...]) -> str:
        return self.sizes.specialise(self.text, sizes) if self.sizes.free else self.text

    def close(self) -> None:
        for prepared in self._prepared.values():
            prepared.close()

    # -- the run -----------------------------------------------------------------------------
    def run(self, examples: int, seed: int | None, database: str | os.PathLike[str] | None,
            output_dir: str | os.PathLike[str] | None,
            model_arguments: Sequence[str] | None) -> VerifyResult:
        from .database import FailureDatabase, model_key
        from .evaluate import Evaluator
        from .shrink import simpler

        started = time.monotonic()
        first = self.prepared(self.sizes.combinations[0] if self.sizes.free else ())
        self.settings.push_values = self._push_values(first)
        strategy, domains = self._strategy()
        seed = random.SystemRandom().randrange(2**32) if seed is None else seed
        evaluator = Evaluator(self.signature, self.sizes, self.reference, self.settings,
                              self.prepared)
        store = FailureDatabase(database) if database is not None else None
        key = model_key(" ".join(model_arguments) if model_arguments else self.path,
                        self.text, self.signature.name)
        saved = self._saved(store, key)
        outcomes = self._first_pass(evaluator, [example for _, example in saved] +
                                    self._drawn(strategy, examples, seed))
        if store is not None:
            for (value, _), outcome in zip(saved, outcomes, strict=False):
                if outcome.expected is not None and not outcome.failed:
                    store.delete(key, value)  # fixed since
        judged = sum(outcome.expected is not None for outcome in outcomes)
        if not judged:
            raise self._unusable_inputs("the reference rejected every example drawn")
        result = VerifyResult(judged, seed, replayed=min(len(saved), len(outcomes)),
                              examples_seconds=time.monotonic() - started)
        failing = [(index, o) for index, o in enumerate(outcomes) if o.failed]
        if failing:
            index, outcome = min(failing, key=lambda item: simpler(item[1], domains))
            counterexample = self._minimal(outcome, evaluator, domains, index < len(saved))
            if store is not None:
                store.save(key, counterexample.inputs)
            if output_dir is not None:
                counterexample = self._written(counterexample, output_dir, model_arguments)
            result.counterexample = counterexample
        result.diagnostics = self._diagnostics(first, evaluator, result.counterexample)
        result.device = evaluator.device
        result.runner_processes = evaluator.runner_processes
        result.source = first.verdict.report().source
        result.seconds = time.monotonic() - started
        return result

    def _drawn(self, strategy: Any, examples: int, seed: int) -> list[Example]:
        """``examples`` examples drawn with ``seed``, each checked against the model."""
        from hypothesis.errors import HypothesisException

        from .generate import draw_examples

        try:
            drawn = draw_examples(strategy, examples, seed)
        except HypothesisException as exc:
            raise self._unusable_inputs(f"hypothesis could not draw examples: {exc}") from None
        return [self._checked(example) for example in drawn]

    @staticmethod
    def _first_pass(evaluator: Evaluator, examples: list[Example]) -> list[Outcome]:
        """The examples judged in order, a batch at a time, until a batch has a failure."""
        outcomes: list[Outcome] = []
        for start in range(0, len(examples), FIRST_PASS_BATCH):
            outcomes += evaluator.evaluate(examples[start:start + FIRST_PASS_BATCH])
            if any(outcome.failed for outcome in outcomes):
                break
        return outcomes

    def _push_values(self, prepared: PreparedModel) -> dict[str, Any]:
        """The push-constant members by name, for the reference; values given by name
        are laid out as bytes first (the bytes go to every run and to the files)."""
        from ..runtime.shaders import push_constants_by_name
        from .reference import push_constant_values

        given = self.given_push_constants
        if given is None:
            return {}
        if isinstance(given, bytes):
            data = given
        else:
            each = push_constants_by_name(prepared.shader_ops, given)
            if len(set(each.values())) > 1:
                from ..runtime.errors import RunError
                from ..runtime.rules import PUSH_CONSTANTS_MISMATCH

                raise RunError([PUSH_CONSTANTS_MISMATCH.at(
                    "", "verify gives every custom op the same push-constant bytes, but "
                        "the ops' blocks lay the values out differently",
                    hint="verify each op as a model of its own (`tosa-vkshader emit mlir` "
                         "of its attributes)")])
            data = next(iter(each.values()))
        self.settings.push_constants = data
        block = next((op.push_constants for op in prepared.shader_ops
                      if op.push_constants is not None), None)
        return push_constant_values(block, data)

    def _strategy(self) -> tuple[Any, list[Domain]]:
        from .reference import constraints
        from .strategies import InputStrategies, input_strategy

        helper = InputStrategies(self.signature.arguments, self.sizes, self.allow_nan)
        given = constraints(self.reference, helper)
        try:
            return input_strategy(helper, given)
        except ValueError as exc:
            raise self._unusable_inputs(str(exc)) from None

    def _unusable_inputs(self, problem: str) -> VerifyError:
        from .rules import REFERENCE_FAILED

        return VerifyError([REFERENCE_FAILED.at(
            "", f"the inputs of the reference {self.reference.name} cannot be used: "
                f"{problem}",
            hint="return from inputs(st) one strategy per argument drawing arrays of its "
                 "dtype and shape, e.g. st.operand(0, min_value=-8, max_value=8)")])

    def _checked(self, example: Any) -> Example:
        """A drawn example as numpy arrays of the arguments' dtypes and shapes."""
        import numpy as np

        arrays = tuple(np.asarray(array) for array in example)
        arguments = self.signature.arguments
        problem = None
        if len(arrays) != len(arguments):
            problem = f"{len(arrays)} arrays were drawn for {len(arguments)} argument(s)"
        else:
            wrong = next(((i, a) for i, (a, arg) in enumerate(zip(arrays, arguments,
                                                                  strict=True))
                          if str(a.dtype) != arg.dtype), None)
            if wrong is not None:
                index, array = wrong
                problem = f"argument {index} ({arguments[index].name}) is " \
                          f"`{arguments[index].type.text}`, an array of {array.dtype} was " \
                          "drawn"
            elif self.sizes.free:
                sizes = self.sizes.of([a.shape for a in arrays], arguments)
                problem = sizes if isinstance(sizes, str) else None
            else:
                problem = next((f"argument {i} ({arg.name}) is `{arg.type.text}`, an "
                                f"array of shape {list(a.shape)} was drawn"
                                for i, (a, arg) in enumerate(zip(arrays, arguments,
                                                                 strict=True))
                                if a.shape != arg.shape), None)
        if problem is not None:
            raise self._unusable_inputs(problem)
        return arrays

    def _saved(self, store: Any, key: bytes) -> list[tuple[bytes, Example]]:
        """The saved failures that still fit the model's arguments (others removed)."""
        if store is None:
            return []
        kept = []
        for value, example in store.fetch(key):
            try:
                kept.append((value, self._checked(example)))
            except VerifyError:
                store.delete(key, value)
        return kept

    # -- the counterexample --------------------------------------------------------------------
    def _minimal(self, failing: Outcome, evaluator: Evaluator, domains: list[Domain],
                 replayed: bool) -> Counterexample:
        """``failing`` shrunk, then run alone as `run` runs it (the same failure, its
        findings as `run` states them); the unshrunk example when the shrunk one passes
        alone (a failure that needs a batch)."""
        from .shrink import shrink

        shrunk = shrink(failing, evaluator, domains, self.sizes)
        for outcome in (shrunk.outcome, failing):
            alone = self._alone(outcome, evaluator)
            if alone.failure is not None:
                assert alone.expected is not None and alone.run is not None
                steps = shrunk.steps if outcome is shrunk.outcome else 0
                return Counterexample(alone.example, alone.expected, list(alone.run.outputs),
                                      alone.failure, failing.example, steps, replayed,
                                      alone.sizes)
        # it fails only among others: report it as it failed there
        assert failing.failure is not None and failing.expected is not None
        assert failing.run is not None
        return Counterexample(failing.example, failing.expected, list(failing.run.outputs),
                              failing.failure, failing.example, 0, replayed, failing.sizes)

    def _alone(self, outcome: Outcome, evaluator: Evaluator) -> Outcome:
        from .evaluate import Outcome

        prepared = self.prepared(outcome.sizes)
        settings = self.settings
        result = prepared.run(list(outcome.example), push_constants=settings.push_constants,
                              write_check=settings.write_check, validate=settings.validate,
                              timeout=settings.timeout or 60.0)
        evaluator.runner_processes += 1
        alone = Outcome(outcome.example, outcome.sizes, outcome.expected, result)
        alone.failure = evaluator.judge(alone)
        return alone

    def _written(self, found: Counterexample, output_dir: str | os.PathLike[str],
                 model_arguments: Sequence[str] | None) -> Counterexample:
        from dataclasses import replace
        from pathlib import Path

        folder = Path(output_dir) / "counterexample"
        write_text = self.sizes.free or model_arguments is None
        settings = self.settings
        how = RunCommand(None if write_text else model_arguments, settings.tolerance,
                         settings.write_check, settings.validate, self.device)
        command = write_counterexample(
            folder, found, how, push_constants=settings.push_constants,
            model_text=self.model_text(found.sizes) if write_text else None)
        return replace(found, folder=folder, command=command)

    def _diagnostics(self, prepared: PreparedModel, evaluator: Evaluator,
                     found: Counterexample | None) -> list[Diagnostic]:
        notes = list(evaluator.notes.values())  # (the check's, the run's, the device's)
        if found is None:
            return notes
        return [*notes, self._counterexample_diagnostic(prepared, found),
                *found.failure.findings]

    def _counterexample_diagnostic(self, prepared: PreparedModel,
                                   found: Counterexample) -> Diagnostic:
        from .reference import describe_example
        from .rules import COUNTEREXAMPLE

        failure = found.failure
        if failure.mismatch is not None:
            what = failure.mismatch.describe(self.settings.tolerance)
        else:
            what = f"the device showed {failure.kind} ({failure.findings[0].message})"
        origin = "replayed from the failure database" if found.replayed else \
            f"shrunk in {found.steps} step(s)"
        diagnostic = COUNTEREXAMPLE.at(
            "", f"counterexample ({origin}): {what}; inputs: "
                f"{describe_example(found.inputs)}",
            hint=f"reproduce: {found.command}" if found.command else
            "give an output folder to get the files and the `run` command that reproduce "
            "it")
        if failure.result is not None:
            return prepared.located(diagnostic, failure.result)
        return diagnostic
