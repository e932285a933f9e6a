"""Hypothesis strategies for a model's inputs: one numpy array per argument of the entry
function, of its dtype and shape, with the values that find bugs.

An array is drawn as a *base* and a few *overrides*:

- the base is either one value everywhere (drawn like any element: an edge value, a
  small integer or half, or any value of the type), or a dense array made by numpy from
  a drawn seed in one of a few ways (a normal distribution at a drawn scale, small
  integers, halves, edge values everywhere, a normal distribution with edge values mixed
  in, the type's whole range for integers);
- up to eight elements are then set to drawn values (edge values among them).

So a 4,096-element array costs a handful of choices, and every way of drawing it shrinks
(under hypothesis' own shrinker, in a user's ``@given`` test) towards one value, zero,
everywhere. Dynamic dimensions take their sizes from one shared draw per example
(:mod:`.shapes`), so every argument of one example agrees on them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from .domains import Domain

if TYPE_CHECKING:
    from collections.abc import Sequence

    from hypothesis.strategies import SearchStrategy

    from ..runtime.model import Argument
    from .shapes import Sizes

MAX_OVERRIDES = 8
# the ways a dense base is made, per kind of element type
_DENSE = {
    "f": ("normal", "integers", "halves", "edges", "mixed"),
    "i": ("uniform", "small", "edges", "mixed"),
    "u": ("uniform", "small", "edges", "mixed"),
    "b": ("bits",),
}
# the scales of a normal distribution, per float size (float16 tops out at 65,504)
_SCALES = {2: (1.0, 1e-3, 100.0, 1e4), 4: (1.0, 1e-3, 1e3, 1e6), 8: (1.0, 1e-3, 1e3, 1e12)}
_SMALL = 16
_WIDTHS: dict[int, Literal[16, 32, 64]] = {2: 16, 4: 32, 8: 64}


def elements(domain: Domain) -> SearchStrategy[Any]:
    """One element: an edge value, a small number, or any value of the domain."""
    if domain.kind == "b":
        return st.booleans()
    edges = domain.edges()
    low, high = domain.bounds()
    small_low, small_high = max(int(np.ceil(low)), -_SMALL), min(int(np.floor(high)), _SMALL)
    choices: list[SearchStrategy[Any]] = [st.sampled_from(edges)] if edges else []
    if domain.kind == "f":
        if small_low <= small_high:
            choices.append(st.integers(small_low, small_high).map(float))
            choices.append(st.integers(small_low, small_high).map(lambda n: n + 0.5)
                           .filter(lambda v: bool(domain.admits(np.array([v]))[0])))
        choices.append(_floats(domain))
    else:
        if small_low <= small_high:
            choices.append(st.integers(small_low, small_high))
        choices.append(st.integers(int(low), int(high)))
    return st.one_of(choices)


def _floats(domain: Domain) -> SearchStrategy[float]:
    """hypothesis' floats of the domain's width, within its bounds (rounded inwards to
    values of that width; NaN and the infinities only where no bound rules them out:
    the edge values bring them otherwise)."""
    dtype = np.dtype(domain.dtype)
    low = high = None
    if domain.min_value is not None:
        low = dtype.type(domain.min_value)
        if low < domain.min_value:
            low = np.nextafter(low, dtype.type(np.inf))
    if domain.max_value is not None:
        high = dtype.type(domain.max_value)
        if high > domain.max_value:
            high = np.nextafter(high, dtype.type(-np.inf))
    bounded = low is not None or high is not None
    # A range that keeps clear of the subnormals (`min_value=0.25`) has none to allow:
    # hypothesis refuses allow_subnormal=True there rather than ignoring it.
    tiny = float(np.finfo(dtype).tiny)
    reaches_subnormals = (low is None or low < tiny) and (high is None or high > -tiny)
    return st.floats(min_value=None if low is None else float(low),
                     max_value=None if high is None else float(high),
                     allow_nan=domain.allow_nan and not bounded,
                     allow_infinity=domain.allow_infinity and (low is None or high is None),
                     allow_subnormal=domain.allow_subnormal and reaches_subnormals,
                     width=_WIDTHS[dtype.itemsize])


@functools.lru_cache(maxsize=256)
def array(domain: Domain, shape: tuple[int, ...]) -> SearchStrategy[np.ndarray]:
    """Arrays of ``shape`` whose elements are in ``domain`` (made once for each: a
    dynamic dimension asks for it at every draw)."""
    size = int(np.prod(shape, dtype=np.int64))
    value = elements(domain)
    dense = st.tuples(st.sampled_from(_DENSE[domain.kind]), st.integers(0, 2**32 - 1),
                      st.sampled_from(_SCALES.get(np.dtype(domain.dtype).itemsize, (1.0,))))
    overrides = st.lists(st.tuples(st.integers(0, max(size - 1, 0)), value),
                         max_size=min(MAX_OVERRIDES, size))
    return st.builds(_make, st.just(domain), st.just(shape), st.one_of(st.none(), dense),
                     value, overrides)


def _make(domain: Domain, shape: tuple[int, ...], dense: tuple[str, int, float] | None,
          fill: Any, overrides: list[tuple[int, Any]]) -> np.ndarray:
    if dense is None:
        made = np.full(shape, fill, dtype=domain.dtype)
    else:
        made = dense_array(domain, shape, *dense)
    flat = made.reshape(-1)
    for index, value in overrides:
        flat[index] = value
    return made


def dense_array(domain: Domain, shape: tuple[int, ...], how: str, seed: int,
                scale: float) -> np.ndarray:
    """An array made by numpy from ``seed``, every element in ``domain``."""
    rng = np.random.default_rng(seed)
    low, high = domain.bounds()
    edges = np.array(domain.edges() or [domain.simplest()], dtype=np.float64)
    if how == "bits":
        return rng.random(shape) < rng.random()
    if how == "edges":
        values = rng.choice(edges, size=shape)
    elif how in ("normal", "mixed") and domain.kind == "f":
        values = rng.standard_normal(shape) * scale
    elif how in ("uniform", "mixed"):
        values = rng.integers(int(low), int(high), size=shape, endpoint=True)
    elif how == "halves":
        values = rng.integers(-_SMALL, _SMALL, size=shape) + 0.5
    else:  # small integers
        values = rng.integers(-_SMALL, _SMALL, size=shape, endpoint=True)
    values = np.asarray(values, dtype=np.float64)
    if how == "mixed":
        mixed = rng.random(shape) < 1 / 16
        values = np.where(mixed, rng.choice(edges, size=shape), values)
    with np.errstate(invalid="ignore"):
        finite = np.isfinite(values)
        values = np.where(finite, np.clip(values, low, high), values)
    made = values.astype(domain.dtype)
    return np.where(domain.admits(made), made, np.asarray(domain.simplest(), domain.dtype))


def default_domains(arguments: Sequence[Argument], *, allow_nan: bool) -> list[Domain]:
    return [Domain(a.dtype or "float32", allow_nan=allow_nan) for a in arguments]


@dataclass(slots=True)
class InputStrategies:
    """What ``inputs(st)`` in a reference file receives.

    - every name of ``hypothesis.strategies`` (``st.integers``, ``st.floats``,
      ``st.tuples``, ``st.just``...) and ``st.arrays`` (``hypothesis.extra.numpy.arrays``);
    - ``st.operand(i, min_value=, max_value=, allow_nan=, allow_infinity=,
      allow_subnormal=)``: the tool's own strategy for argument ``i`` (its index or
      name), its elements constrained; shrinking keeps to the constraint;
    - ``st.operands``: the tool's strategy for every argument, unconstrained.

    ``inputs(st)`` returns one entry per argument (a strategy drawing that argument's
    array, or None for the tool's own), a dict from argument index or name to such a
    strategy, or one strategy drawing the whole tuple of arrays."""

    arguments: Sequence[Argument]
    sizes: Sizes
    allow_nan: bool = True
    _domains: dict[int, tuple[Any, Domain]] = field(default_factory=dict)

    def operand(self, which: int | str, *, min_value: float | None = None,
                max_value: float | None = None, allow_nan: bool | None = None,
                allow_infinity: bool | None = None,
                allow_subnormal: bool | None = None) -> SearchStrategy[np.ndarray]:
        index = self.argument_index(which)
        argument = self.arguments[index]
        domain = Domain(argument.dtype or "float32", min_value, max_value,
                        self.allow_nan if allow_nan is None else allow_nan,
                        True if allow_infinity is None else allow_infinity,
                        True if allow_subnormal is None else allow_subnormal)
        strategy = self._arrays(argument, domain)
        self._domains[id(strategy)] = (strategy, domain)
        return strategy

    @property
    def operands(self) -> list[SearchStrategy[np.ndarray]]:
        return [self.operand(index) for index in range(len(self.arguments))]

    def arrays(self, *args: Any, **kwargs: Any) -> SearchStrategy[np.ndarray]:
        return hnp.arrays(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(st, name)

    def domain_of(self, strategy: Any, index: int) -> Domain:
        """The domain of argument ``index`` drawn by ``strategy``: known for the tool's
        own strategies, else every value it draws is taken as allowed, and shrinking
        keeps to the values it drew."""
        known = self._domains.get(id(strategy))
        if known is not None and known[0] is strategy:
            return known[1]
        return Domain(self.arguments[index].dtype or "float32", observed_only=True)

    def argument_index(self, which: int | str) -> int:
        if isinstance(which, int) and 0 <= which < len(self.arguments):
            return which
        names = [a.name.lstrip("%") for a in self.arguments]
        if isinstance(which, str) and which.lstrip("%") in names:
            return names.index(which.lstrip("%"))
        raise ValueError(f"the model's entry function has no argument {which!r} (it has "
                         f"{len(names)}: {', '.join(names)})")

    def _arrays(self, argument: Argument, domain: Domain) -> SearchStrategy[np.ndarray]:
        if not self.sizes.free:
            return array(domain, argument.shape or ())
        sizes = self.sizes
        return shared_sizes(sizes).flatmap(
            lambda drawn: array(domain, sizes.shape(argument.type, drawn)))


def shared_sizes(sizes: Sizes) -> SearchStrategy[tuple[int, ...]]:
    """The sizes of one example's dynamic dimensions, drawn once and shared by every
    argument's strategy."""
    return st.shared(st.sampled_from(sizes.combinations), key=f"tosa-vkshader:{sizes.axes}")


def input_strategy(helper: InputStrategies, given: Any = None,
                   ) -> tuple[SearchStrategy[tuple[np.ndarray, ...]], list[Domain]]:
    """The strategy drawing one example (a tuple of arrays, one per argument) and each
    argument's domain, from what ``inputs(st)`` returned (None: the tool's own for
    every argument). ValueError says what in ``given`` cannot be used."""
    from hypothesis.strategies import SearchStrategy

    count = len(helper.arguments)
    if isinstance(given, SearchStrategy):
        return given.map(tuple), [helper.domain_of(given, index) for index in range(count)]
    if given is None:
        chosen: list[Any] = [None] * count
    elif isinstance(given, dict):
        chosen = [None] * count
        for key, strategy in given.items():
            chosen[helper.argument_index(key)] = strategy
    elif isinstance(given, (list, tuple)):
        if len(given) != count:
            raise ValueError(f"inputs(st) returned {len(given)} entries for the {count} "
                             "argument(s) of the entry function")
        chosen = list(given)
    else:
        raise ValueError(f"inputs(st) returned {type(given).__name__}: return a list with "
                         "one strategy (or None) per argument, a dict, or one strategy "
                         "drawing the tuple of arrays")
    strategies, domains = [], []
    for index, strategy in enumerate(chosen):
        if strategy is None:
            strategy = helper.operand(index)
        elif not isinstance(strategy, SearchStrategy):
            raise ValueError(f"inputs(st) gave {type(strategy).__name__} for argument "
                             f"{index}, not a hypothesis strategy")
        strategies.append(strategy)
        domains.append(helper.domain_of(strategy, index))
    return st.tuples(*strategies), domains
