"""Results against expected arrays: integers exactly, floats within rtol/atol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from .rules import INPUT_MISMATCH, RESULT_MISMATCH

if TYPE_CHECKING:
    import numpy as np


def compare_results(results: Sequence[np.ndarray], expected: Sequence[np.ndarray], *,
                    rtol: float, atol: float) -> list[Diagnostic]:
    """One diagnostic per result that differs (none when all match)."""
    if len(expected) != len(results):
        return [INPUT_MISMATCH.at(
            "", f"{len(expected)} --expect array(s) given for {len(results)} result(s)",
            hint="give one --expect per result, in result order")]
    problems = []
    for index, (got, want) in enumerate(zip(results, expected, strict=True)):
        problem = _compare(index, got, want, rtol, atol)
        if problem is not None:
            problems.append(problem)
    return problems


def _compare(index: int, got: np.ndarray, want: np.ndarray, rtol: float,
             atol: float) -> Diagnostic | None:
    import numpy as np

    if got.shape != want.shape:
        return RESULT_MISMATCH.at(
            "", f"result_{index}: shape {list(got.shape)}, expected {list(want.shape)}")
    exact = not (np.issubdtype(got.dtype, np.floating) or
                 np.issubdtype(want.dtype, np.floating))
    g, w = got.astype(np.float64), want.astype(np.float64)
    if exact:
        bad = got.astype(np.int64) != want.astype(np.int64) if got.dtype != bool else \
            got != want.astype(bool)
    else:
        bad = ~np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
    if not bad.any():
        return None
    first = tuple(int(i) for i in np.argwhere(bad)[0])
    diff = np.abs(g - w)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(w != 0, diff / np.abs(w), np.where(diff == 0, 0.0, np.inf))
    max_abs = float(np.nanmax(diff))
    max_rel = float(np.nanmax(rel))
    how = "exactly (integers)" if exact else f"beyond rtol={rtol:g}, atol={atol:g}"
    return RESULT_MISMATCH.at(
        "", f"result_{index}: {int(bad.sum())} of {bad.size} element(s) differ {how}; first "
            f"at index {list(first)}: got {got[first].item()!r}, expected "
            f"{want[first].item()!r}; max abs error {max_abs:g}, max rel error {max_rel:g}")
