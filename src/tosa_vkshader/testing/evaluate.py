"""Judging examples: the reference on the host, the op on the device in batches, and the
verdict on each.

Every example's expected results are computed first (a reference that rejects an example
takes it out); the rest run through ``PreparedModel.run_many``, as many in one
scenario-runner process as fit in :data:`BATCH_BYTES` (at most :data:`BATCH_EXAMPLES`),
with the write check and the validation layer as asked. An example *fails* when the
device showed an error on it (VKS962, VKS963, VKS966: the finding's code is the kind of
failure) or a result differs from the reference beyond the tolerance (the kind is
``mismatch`` and the result's index). A model with dynamic dimensions is prepared once
per combination of sizes its examples take.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..diagnostics import Severity
from ..runtime.compare import Mismatch, Tolerance, find_mismatch
from ..runtime.session import AUTO
from .errors import VerifyError
from .reference import Rejected, call

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..diagnostics import Diagnostic
    from ..runtime import PreparedModel, RunResult
    from ..runtime.model import Signature
    from .reference import Reference
    from .shapes import Sizes

    Example = tuple[np.ndarray, ...]

BATCH_BYTES = 64 << 20
BATCH_EXAMPLES = 256
# a runner process may take this long, plus a second per example in its batch
BASE_TIMEOUT = 60.0


@dataclass(frozen=True, slots=True)
class Failure:
    """Why an example failed: ``kind`` is ``mismatch`` (then ``result`` and
    ``mismatch`` say where) or the code of the device's finding."""

    kind: str
    result: int | None = None
    mismatch: Mismatch | None = None
    findings: tuple[Diagnostic, ...] = ()

    @property
    def signature(self) -> tuple[str, int | None]:
        """What a shrunk example must still show to count as the same failure."""
        return self.kind, self.result


@dataclass(slots=True)
class Outcome:
    """One example and what came of it: ``expected`` is None when the reference
    rejected it (then it did not run)."""

    example: Example
    sizes: tuple[int, ...]
    expected: list[np.ndarray] | None = None
    run: RunResult | None = None
    failure: Failure | None = None

    @property
    def failed(self) -> bool:
        return self.failure is not None


@dataclass(slots=True)
class Settings:
    """How each example is run and judged."""

    tolerance: Tolerance = field(default_factory=Tolerance)
    push_constants: bytes | None = None  # (values by name are laid out first)
    push_values: dict[str, Any] = field(default_factory=dict)
    write_check: bool = True
    validate: bool | str | Sequence[str] = AUTO
    timeout: float | None = None  # per runner process; None: BASE_TIMEOUT + 1 s an example


@dataclass(slots=True)
class Evaluator:
    """Runs examples of one model against one reference. ``prepared(sizes)`` gives the
    prepared model for a combination of sizes (the one model when static)."""

    signature: Signature
    sizes: Sizes
    reference: Reference
    settings: Settings
    prepared: Callable[[tuple[int, ...]], PreparedModel]
    examples_run: int = 0
    runner_processes: int = 0
    # the check's warnings, the run's notes and the device's warnings: the first of each
    # code at each line (every size of a dynamic dimension, every batch, says them again)
    notes: dict[tuple[str, int], Diagnostic] = field(default_factory=dict)
    device: str | None = None

    def evaluate(self, examples: Sequence[Example], *,
                 variants: bool = False) -> list[Outcome]:
        """Each example judged. ``variants``: the examples are the shrinker's variants of
        one the reference took, so one it fails on (raises, answers wrongly) is outside
        what it accepts, and is rejected rather than stopping everything."""
        outcomes = [Outcome(example, self.sizes_of(example)) for example in examples]
        for outcome in outcomes:
            try:
                outcome.expected = call(self.reference, outcome.example,
                                        self.settings.push_values, self._results(outcome))
            except Rejected:
                outcome.expected = None
            except VerifyError:
                if not variants:
                    raise
                outcome.expected = None
        groups: dict[tuple[int, ...], list[Outcome]] = {}
        for outcome in outcomes:
            if outcome.expected is not None:
                groups.setdefault(outcome.sizes, []).append(outcome)
        for sizes, group in groups.items():
            for batch in _batches(group):
                self._run(self.prepared(sizes), batch)
        return outcomes

    def sizes_of(self, example: Example) -> tuple[int, ...]:
        if not self.sizes.free:
            return ()
        found = self.sizes.of([a.shape for a in example], self.signature.arguments)
        assert not isinstance(found, str), found  # (drawn examples are checked first)
        return found

    def _results(self, outcome: Outcome) -> list[tuple[str, tuple[int, ...], str]]:
        return [(r.name, self.sizes.shape(r.type, outcome.sizes) if self.sizes.free
                 else r.shape or (), r.dtype or "float32") for r in self.signature.results]

    def _run(self, prepared: PreparedModel, batch: list[Outcome]) -> None:
        settings = self.settings
        timeout = settings.timeout or BASE_TIMEOUT + len(batch)
        results = prepared.run_many([outcome.example for outcome in batch],
                                    push_constants=settings.push_constants,
                                    write_check=settings.write_check,
                                    validate=settings.validate, timeout=timeout)
        self.runner_processes += 1
        self.examples_run += len(batch)
        for outcome, result in zip(batch, results, strict=True):
            outcome.run = result
            outcome.failure = self.judge(outcome)
            self.device = self.device or result.device
            for note in (*result.notes, *result.findings):
                if note.severity is not Severity.ERROR:
                    line = note.location.line if note.location is not None else 0
                    self.notes.setdefault((note.code, line), note)

    def judge(self, outcome: Outcome) -> Failure | None:
        """The failure ``outcome`` shows, or None when it passed."""
        assert outcome.run is not None and outcome.expected is not None
        errors = tuple(d for d in outcome.run.findings if d.severity is Severity.ERROR)
        if errors:
            return Failure(errors[0].code, findings=errors)
        for index, (got, want) in enumerate(zip(outcome.run.outputs, outcome.expected,
                                                strict=True)):
            found = find_mismatch(index, got, want, self.settings.tolerance)
            if found is not None:
                return Failure("mismatch", index, found)
        return None


def _batches(group: list[Outcome]) -> list[list[Outcome]]:
    """``group`` cut into batches of at most :data:`BATCH_BYTES` of inputs and results
    (results twice: the write check's two dispatches) and :data:`BATCH_EXAMPLES`."""
    batches: list[list[Outcome]] = []
    current: list[Outcome] = []
    size = 0
    for outcome in group:
        assert outcome.expected is not None
        cost = sum(a.nbytes for a in outcome.example) + \
            2 * sum(a.nbytes for a in outcome.expected)
        if current and (size + cost > BATCH_BYTES or len(current) >= BATCH_EXAMPLES):
            batches.append(current)
            current, size = [], 0
        current.append(outcome)
        size += cost
    if current:
        batches.append(current)
    return batches
