"""Results against expected arrays: integers exactly, floats within rtol/atol or within a
number of units in the last place (ULP).

:func:`find_mismatch` says how one result differs (the first differing element, the
values there, how far apart they are); `run --expect` and `verify` both report from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, Location
from .rules import INPUT_MISMATCH, RESULT_MISMATCH

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True, slots=True)
class Tolerance:
    """How far a float result may be from the expected one: ``rtol``/``atol`` as
    ``numpy.isclose``, or, when ``ulp`` is given, at most that many representable values
    of the result's type apart. Integers and booleans always compare exactly; NaN
    matches NaN."""

    rtol: float = 1e-5
    atol: float = 1e-6
    ulp: int | None = None

    @staticmethod
    def given(rtol: float | None, atol: float | None, ulp: int | None = None) -> Tolerance:
        """The tolerance with what was given, the defaults for the rest."""
        default = Tolerance()
        return Tolerance(default.rtol if rtol is None else rtol,
                         default.atol if atol is None else atol, ulp)

    def describe(self) -> str:
        if self.ulp is not None:
            return f"by more than {self.ulp} ULP"
        return f"beyond rtol={self.rtol:g}, atol={self.atol:g}"


@dataclass(frozen=True, slots=True)
class Mismatch:
    """How result ``result`` differs: ``count`` of ``size`` elements, the first at
    ``first`` (got and expected there, and their ULP distance for floats)."""

    result: int
    count: int
    size: int
    first: tuple[int, ...]
    got: Any  # numpy scalars, of the result's dtype (``str`` writes them shortest)
    expected: Any
    exact: bool  # integers or booleans
    ulp: float | None  # at the first differing element; inf where one is NaN
    max_abs: float
    max_rel: float

    def describe(self, tolerance: Tolerance) -> str:
        how = "exactly (integers)" if self.exact else tolerance.describe()
        apart = "" if self.ulp is None else f" ({_ulp_text(self.ulp)})"
        # (over the differing elements; none to tell when each is NaN against a number)
        errors = "" if self.max_abs != self.max_abs else \
            f"; max abs error {self.max_abs:g}, max rel error {self.max_rel:g}"
        return (f"result_{self.result}: {self.count} of {self.size} element(s) differ {how}; "
                f"first at index {list(self.first)}: got {self.got!s}, expected "
                f"{self.expected!s}{apart}{errors}")


def compare_results(results: Sequence[np.ndarray], expected: Sequence[np.ndarray], *,
                    rtol: float | None = None, atol: float | None = None,
                    ulp: int | None = None,
                    places: Sequence[Location | None] = ()) -> list[Diagnostic]:
    """One diagnostic per result that differs (none when all match), placed at
    ``places[index]`` (where the result is written) when given; ``rtol`` and ``atol``
    default to :class:`Tolerance`'s."""
    if len(expected) != len(results):
        return [INPUT_MISMATCH.at(
            "", f"{len(expected)} --expect array(s) given for {len(results)} result(s)",
            hint="give one --expect per result, in result order")]
    tolerance = Tolerance.given(rtol, atol, ulp)
    problems = []
    for index, (got, want) in enumerate(zip(results, expected, strict=True)):
        place = places[index] if index < len(places) else None
        if got.shape != want.shape:
            problems.append(RESULT_MISMATCH.at(
                "", f"result_{index}: shape {list(got.shape)}, expected {list(want.shape)}")
                .located(place))
            continue
        found = find_mismatch(index, got, want, tolerance)
        if found is not None:
            problems.append(RESULT_MISMATCH.at("", found.describe(tolerance)).located(place))
    return problems


def find_mismatch(index: int, got: np.ndarray, want: np.ndarray,
                  tolerance: Tolerance) -> Mismatch | None:
    """How ``got`` (result ``index``) differs from ``want`` of the same shape; None when
    every element matches."""
    import numpy as np

    exact = not (np.issubdtype(got.dtype, np.floating) or
                 np.issubdtype(want.dtype, np.floating))
    g, w = got.astype(np.float64), want.astype(np.float64)
    ulps = None
    if exact:
        bad = got.astype(np.int64) != want.astype(np.int64) if got.dtype != bool else \
            got != want.astype(bool)
    else:
        if np.issubdtype(got.dtype, np.floating):
            ulps = ulp_distance(got, want.astype(got.dtype))
        if tolerance.ulp is not None and ulps is not None:
            bad = ulps > tolerance.ulp
        else:
            bad = ~np.isclose(g, w, rtol=tolerance.rtol, atol=tolerance.atol, equal_nan=True)
    if not bad.any():
        return None
    first = tuple(int(i) for i in np.argwhere(bad)[0])
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        diff = np.abs(g - w)
        rel = np.where(w != 0, diff / np.abs(w), np.where(diff == 0, 0.0, np.inf))
    return Mismatch(index, int(bad.sum()), int(bad.size), first, got[first],
                    want.astype(got.dtype)[first] if not exact else want[first], exact,
                    None if ulps is None else float(ulps[first]), _largest(diff[bad]),
                    _largest(rel[bad]))


def _largest(values: np.ndarray) -> float:
    """The largest value that is not NaN (NaN when all are)."""
    import numpy as np

    known = values[~np.isnan(values)]
    return float(known.max()) if known.size else float("nan")


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many representable values of their float type lie between ``a`` and ``b``,
    element by element (as float64): 0 for equal values (and for +0 against -0, and NaN
    against NaN), inf where exactly one is NaN."""
    import numpy as np

    bits = {2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]
    magnitude = np.int64((1 << (8 * a.dtype.itemsize - 1)) - 1)

    def ordered(x: np.ndarray) -> np.ndarray:
        # sign and magnitude -> one line of integers: negatives mirrored below zero
        raw = x.view(bits).astype(np.int64)
        return np.where(raw < 0, -(raw & magnitude), raw).astype(np.float64)

    with np.errstate(invalid="ignore"):
        distance = np.abs(ordered(a) - ordered(b))
    a_nan, b_nan = np.isnan(a), np.isnan(b)
    return np.where(a_nan & b_nan, 0.0, np.where(a_nan | b_nan, np.inf, distance))


def _ulp_text(distance: float) -> str:
    if distance == float("inf"):
        return "one is NaN"
    return f"{distance:.0f} ULP apart"
