"""Shrinking a failing example in batches: each round makes every simpler variant of the
best example so far that it knows how to make, runs them all in one scenario-runner
process, and keeps the simplest that still fails the same way.

Hypothesis' own shrinker asks about one candidate at a time, and here each would be a
runner process of its own (0.3 s on lavapipe), hundreds of them; a round of 64
candidates in one process costs about as much as two alone. The variants:

- smaller sizes for dynamic dimensions (the arrays cropped), tried once for each size
  the example reaches (each size is a runner process of its own);
- an operand all simple (zero, or the value of its domain closest to zero);
- chunks of an operand's non-simple elements made simple, or all but one chunk (halves,
  quarters... down to 64 chunks): ddmin's deletion, on elements;
- chunks of them merged, each into its first element holding the chunk's sum (one,
  two, four... 64 chunks; or the first 2, 4, 8... alone): a bug that needs many elements
  together (a float16 accumulator that loses the ones added past 2048) shrinks to a few
  larger ones (2048, 1, 1);
- simpler values: for all non-simple elements at once and, when few are left, for each
  alone: zero, plus or minus one, the integer part, the nearest integer, powers of two
  below the value, fewer significant digits, the absolute value, the largest finite
  value for an infinity.

"Simpler" is an order on examples: a smaller size first, then fewer non-simple elements,
then their total complexity (:func:`.domains.complexity`: small integers before
fractions, positive before negative, numbers before the infinities and NaN). Every
variant stays in the operand's domain; where the domain is the user's own strategy, only
values that strategy drew in that operand are used. The same failure means the same
kind (a mismatch on the same result, or the same finding of the device); a variant the
reference rejects, or raises on, does not count.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .domains import complexity, is_simple
from .shapes import Sizes

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from .domains import Domain
    from .evaluate import Evaluator, Example, Outcome

ROUND = 64  # candidates run in one runner process
MAX_ROUNDS = 60
DEADLINE = 120.0  # seconds of shrinking at most
_CHUNKS = 64
_ONE_BY_ONE = 32  # elements simplified one by one when at most this many are left


@dataclass(frozen=True, slots=True)
class Shrunk:
    """The simplest failing example found, how many simplifications led there, and the
    runner processes and candidates it took."""

    outcome: Outcome
    steps: int
    rounds: int
    candidates: int


def shrink(failing: Outcome, evaluator: Evaluator, domains: Sequence[Domain],
           sizes: Sizes, *, deadline: float = DEADLINE) -> Shrunk:
    assert failing.failure is not None
    wanted = failing.failure.signature
    shrinker = _Shrinker.of(failing.example, domains, sizes)
    best, steps, rounds, tried = failing, 0, 0, 0
    cropped_at: set[tuple[int, ...]] = set()  # sizes whose smaller sizes were tried
    stop = time.monotonic() + deadline
    while rounds < MAX_ROUNDS and time.monotonic() < stop:
        current = shrinker.cost(best.example)
        crop = best.sizes not in cropped_at
        cropped_at.add(best.sizes)
        candidates = sorted(
            ((shrinker.cost(c), c) for c in shrinker.candidates(best.example, crop=crop)
             if shrinker.admits(c)), key=lambda item: item[0])
        candidates = _distinct([(cost, c) for cost, c in candidates if cost < current])
        improved = None
        for start in range(0, len(candidates), ROUND):
            if rounds >= MAX_ROUNDS or time.monotonic() >= stop:
                break
            chunk = [c for _, c in candidates[start:start + ROUND]]
            rounds += 1
            tried += len(chunk)
            same = [o for o in evaluator.evaluate(chunk, variants=True)
                    if o.failure is not None and o.failure.signature == wanted]
            if same:
                improved = same[0]  # (the candidates are in order: the simplest first)
                break
        if improved is None:
            break
        best, steps = improved, steps + 1
    return Shrunk(best, steps, rounds, tried)


def simpler(outcome: Outcome, domains: Sequence[Domain]) -> tuple[int, int, float]:
    """How simple ``outcome``'s example is (smaller is simpler), in the shrinker's order:
    which failing example of a batch to shrink."""
    return _Shrinker.of(outcome.example, domains, Sizes()).cost(outcome.example)


def _simplest(domain: Domain, observed: np.ndarray | None) -> Any:
    if observed is None or not observed.size:
        return domain.simplest()
    scores = complexity(observed, 0)
    return observed[int(np.argmin(scores))].item()


def _distinct(candidates: list[tuple[Any, Example]]) -> list[tuple[Any, Example]]:
    seen: set[bytes] = set()
    kept = []
    for cost, example in candidates:
        key = b"|".join(repr(a.shape).encode() + a.tobytes() for a in example)
        if key not in seen:
            seen.add(key)
            kept.append((cost, example))
    return kept


@dataclass(frozen=True, slots=True)
class _Shrinker:
    domains: Sequence[Domain]
    observed: Sequence[np.ndarray | None]
    simplest: Sequence[Any]
    sizes: Sizes

    @classmethod
    def of(cls, example: Example, domains: Sequence[Domain], sizes: Sizes) -> _Shrinker:
        """The shrinker of ``example``: for an operand whose domain is the user's own
        strategy, the values it drew are the only ones used."""
        observed = [np.unique(array) if domain.observed_only else None
                    for array, domain in zip(example, domains, strict=True)]
        simplest = [_simplest(domain, values)
                    for domain, values in zip(domains, observed, strict=True)]
        return cls(domains, observed, simplest, sizes)

    def cost(self, example: Example) -> tuple[int, int, float]:
        elements = sum(a.size for a in example)
        plain = [~is_simple(a, s) for a, s in zip(example, self.simplest, strict=True)]
        scores = sum(float(complexity(a[p], s).sum())
                     for a, p, s in zip(example, plain, self.simplest, strict=True))
        return elements, sum(int(p.sum()) for p in plain), scores

    def admits(self, example: Example) -> bool:
        for array, domain, observed in zip(example, self.domains, self.observed,
                                           strict=True):
            if observed is not None:
                seen = np.isin(array, observed)
                if array.dtype.kind == "f" and np.isnan(observed).any():
                    seen |= np.isnan(array)
                if not seen.all():
                    return False
            elif not domain.admits(array).all():
                return False
        return True

    def candidates(self, example: Example, *, crop: bool) -> Iterator[Example]:
        """The simpler variants of ``example``; smaller sizes only when ``crop``."""
        if crop:
            yield from self._smaller_sizes(example)
        for index, array in enumerate(example):
            simple = self.simplest[index]
            positions = np.flatnonzero(~is_simple(array, simple))
            if not positions.size:
                continue
            yield _with(example, index, positions, simple)
            yield from self._chunks(example, index, positions)
            yield from self._merges(example, index, positions)
            values = array.reshape(-1)[positions]
            for moved in self._moves(index, values):
                yield _with(example, index, positions, moved)
            if positions.size <= _ONE_BY_ONE:
                for position, value in zip(positions, values, strict=True):
                    for moved in self._moves(index, np.array([value])):
                        yield _with(example, index, np.array([position]), moved)

    def _smaller_sizes(self, example: Example) -> Iterator[Example]:
        if not self.sizes.free:
            return
        shapes = [a.shape for a in example]
        for combination in self.sizes.combinations:
            cropped = []
            for array, shape in zip(example, shapes, strict=True):
                dims = len(shape)
                new = tuple(combination[self.sizes.axes.index(dims - 1 - k)]
                            if dims - 1 - k in self.sizes.axes else n
                            for k, n in enumerate(shape))
                if any(a > b for a, b in zip(new, shape, strict=True)):
                    break
                cropped.append(array[tuple(slice(0, n) for n in new)].copy())
            else:
                if [a.shape for a in cropped] != shapes:
                    yield tuple(cropped)

    def _chunks(self, example: Example, index: int,
                positions: np.ndarray) -> Iterator[Example]:
        simple = self.simplest[index]
        parts = 2
        while parts <= min(_CHUNKS, positions.size):
            chunks = np.array_split(positions, parts)
            for chunk in chunks:
                yield _with(example, index, chunk, simple)
                if parts > 2:
                    yield _with(example, index, np.setdiff1d(positions, chunk), simple)
            parts *= 2

    def _merges(self, example: Example, index: int,
                positions: np.ndarray) -> Iterator[Example]:
        array = example[index]
        if self.observed[index] is not None or array.dtype.kind not in "iuf" or \
                positions.size < 2:
            return  # (a sum is not a value the user's own strategy drew)
        values = array.reshape(-1)[positions].astype(np.float64)
        splits = []  # the first element of each chunk
        parts = 1
        while parts <= min(_CHUNKS, positions.size // 2):
            splits.append([c[0] for c in np.array_split(np.arange(positions.size), parts)])
            parts *= 2
        first = 2
        while first < positions.size:
            splits.append([0, *range(first, positions.size)])
            first *= 2
        limit = _largest(array.dtype)
        for bounds in splits:
            with np.errstate(invalid="ignore", over="ignore"):  # (infinities, NaN: skipped)
                sums = np.add.reduceat(values, bounds)
            if np.isfinite(sums).all() and (np.abs(sums) <= limit).all():
                merged = _with(example, index, positions, self.simplest[index])
                yield _with(merged, index, positions[bounds], sums.astype(array.dtype))

    def _moves(self, index: int, values: np.ndarray) -> Iterator[np.ndarray]:
        """Simpler values for ``values`` (all at once), each a whole replacement."""
        domain, observed = self.domains[index], self.observed[index]
        if observed is not None:  # only what the user's strategy drew
            scores = complexity(observed, 0)
            for value in observed[np.argsort(scores, kind="stable")][:8]:
                yield np.full_like(values, value)
            return
        if values.dtype.kind == "b":
            return
        v = values.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            sign = np.where(np.signbit(v), -1.0, 1.0)
            finite = np.isfinite(v)
            magnitude = np.abs(v)
            yield from _typed(values, [
                sign,
                np.where(finite, np.trunc(v), v),
                np.where(finite, np.round(v), v),
                np.where(finite, magnitude, v),
                np.where(np.isinf(v), sign * _largest(values.dtype), v),
                np.where(finite & (magnitude > 0), _significant(v, 1), v),
                np.where(finite & (magnitude > 0), _significant(v, 2), v),
            ], domain)
            if values.size == 1 and finite[0] and magnitude[0] > 2:
                top = int(np.floor(np.log2(magnitude[0])))
                yield from _typed(values, [sign * 2.0 ** e for e in range(1, top + 1)],
                                  domain)


def _largest(dtype: np.dtype) -> float:
    return float(np.finfo(dtype).max) if dtype.kind == "f" else float(np.iinfo(dtype).max)


def _significant(values: np.ndarray, digits: int) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scale = 10.0 ** (np.floor(np.log10(np.abs(values))) - digits + 1)
        return np.where(np.isfinite(scale) & (scale > 0), np.trunc(values / scale) * scale,
                        values)


def _typed(values: np.ndarray, proposals: list[np.ndarray],
           domain: Domain) -> Iterator[np.ndarray]:
    """Each proposal in the values' dtype, the elements it would not simplify (or that
    fall outside the domain) left as they were."""
    before = complexity(values, domain.simplest())
    for proposal in proposals:
        with np.errstate(invalid="ignore", over="ignore"):
            typed = np.asarray(proposal, dtype=np.float64)
            if values.dtype.kind in "iu":
                info = np.iinfo(values.dtype)
                typed = np.clip(np.nan_to_num(typed), info.min, info.max)
            cast = typed.astype(values.dtype)
        better = (complexity(cast, domain.simplest()) < before) & domain.admits(cast)
        if better.any():
            yield np.where(better, cast, values)


def _with(example: Example, index: int, positions: np.ndarray, values: Any) -> Example:
    """``example`` with operand ``index``'s elements at ``positions`` set to ``values``."""
    changed = example[index].copy()
    changed.reshape(-1)[positions] = values
    return (*example[:index], changed, *example[index + 1:])
