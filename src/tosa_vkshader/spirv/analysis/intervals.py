"""Sets of integers as sorted, disjoint half-open intervals, and the one operation the
coverage needs: ``{b + c * u : b in B, u in U}``.

A dispatch that covers its result turns every such sum into one interval after a few
steps; one that leaves gaps (columns 32-39 of every row) keeps one interval per row.
Past :data:`MAX_INTERVALS` the set is not worked out (None).
"""

from __future__ import annotations

from collections.abc import Iterable

Intervals = tuple[tuple[int, int], ...]
MAX_INTERVALS = 1 << 16


def normal(pieces: Iterable[tuple[int, int]]) -> Intervals:
    """Sorted, merged, empty pieces dropped."""
    merged: list[list[int]] = []
    for start, end in sorted(p for p in pieces if p[0] < p[1]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return tuple((a, b) for a, b in merged)


def of_values(values: Iterable[int]) -> Intervals:
    return normal((v, v + 1) for v in values)


def size(intervals: Intervals) -> int:
    return sum(b - a for a, b in intervals)


def clip(intervals: Intervals, low: int | None, high: int | None) -> Intervals:
    """The part inside [low, high) (None: unbounded)."""
    found = []
    for a, b in intervals:
        if low is not None:
            a = max(a, low)
        if high is not None:
            b = min(b, high)
        if a < b:
            found.append((a, b))
    return tuple(found)


def sum_set(base: Intervals, coefficient: int, values: Intervals) -> Intervals | None:
    """``{b + coefficient * u : b in base, u in values}``; None past the size limit."""
    if not base or not values:
        return ()
    if coefficient == 0:
        return base
    if coefficient < 0:
        coefficient = -coefficient
        values = normal((-b + 1, -a + 1) for a, b in values)
    pieces: list[tuple[int, int]] = []
    span = base[-1][1] - base[0][0]
    dense = len(base) == 1 and span >= coefficient
    for low, high in values:
        if dense:  # the shifted copies touch or overlap: one interval
            pieces.append((base[0][0] + coefficient * low,
                           base[0][1] + coefficient * (high - 1)))
            continue
        if (high - low) * len(base) + len(pieces) > MAX_INTERVALS:
            return None
        for u in range(low, high):
            shift = coefficient * u
            pieces.extend((a + shift, b + shift) for a, b in base)
    result = normal(pieces)
    return result if len(result) <= MAX_INTERVALS else None


def first_gap(intervals: Intervals, low: int, high: int) -> int | None:
    """The first number in [low, high) that is not in the set."""
    current = low
    for a, b in intervals:
        if b <= current:
            continue
        if a > current:
            break
        current = b
        if current >= high:
            return None
    return current if current < high else None
