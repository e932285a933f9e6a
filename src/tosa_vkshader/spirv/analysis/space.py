"""The variables of one access, grouped by its guards into factors.

An address such as ``4 * (8 * wg.x + lid.x) + 160 * (8 * wg.y + lid.y)`` starts with one
factor per variable, each with its value set (``wg.x`` in ``[0, dispatched)``). A guard
whose terms are a whole multiple of some factors, used in the same proportion by every
coordinate (``gid.x < 40``: ``8 * wg.x + lid.x``), merges them into one factor whose values
are the sums that satisfy it, so the guard narrows exactly what it bounds; a guard on
the whole address clips the address. What a guard does not fit this way is reported
back, and the caller treats the access as inexact.
"""

from __future__ import annotations

from . import intervals as iv
from .forms import Poly
from .records import Condition


class Space:
    """The variables of one write and the factors they have been grouped into."""

    __slots__ = ("factors",)

    def __init__(self, domains: dict[str, iv.Intervals]) -> None:
        # factor -> (its variables with their coefficients, its value set)
        self.factors: list[tuple[dict[str, int], iv.Intervals]] = [
            ({name: 1}, values) for name, values in domains.items()]

    def factor_of(self, name: str) -> int:
        return next(k for k, (members, _v) in enumerate(self.factors) if name in members)

    def in_factors(self, form: Poly) -> dict[int, int] | None:
        """``form``'s linear part as factor -> multiple of that factor's combination
        (None when it is not a whole multiple of each factor it touches)."""
        linear = form.linear()
        found: dict[int, int] = {}
        for k in {self.factor_of(name) for name in linear}:
            members = self.factors[k][0]
            first, unit = next(iter(members.items()))
            if linear.get(first, 0) % unit:
                return None
            ratio = linear.get(first, 0) // unit
            if ratio == 0 or any(linear.get(name, 0) != ratio * c
                                 for name, c in members.items()):
                return None
            found[k] = ratio
        return found

    def apply(self, guard: Condition, coordinates: list[Poly]) -> str | None:
        """Narrow the factors by ``guard``; the reason when it cannot be used."""
        touched = self.in_factors(guard.form)
        if touched is None:
            return "a condition that mixes invocation IDs the address uses differently"
        if not touched:
            return None
        uses = [self.in_factors(c) for c in coordinates]
        if any(u is None for u in uses):
            return "an address the analysis cannot split"
        keys = sorted(touched, key=lambda k: abs(touched[k]))
        # Each coordinate must use these factors in the guard's proportions, or not at all.
        for use in uses:
            assert use is not None
            parts = {k: use.get(k, 0) for k in keys}
            if not any(parts.values()):
                continue
            if any(parts[k] * touched[keys[0]] != parts[keys[0]] * touched[k] for k in keys):
                return "a condition on part of an address term"
        values = iv.normal([(0, 1)])
        for k in keys:
            summed = iv.sum_set(values, touched[k], self.factors[k][1])
            if summed is None:
                return "too many separate pieces to follow"
            values = summed
        allowed = satisfying(values, guard.form.constant, guard.op)
        combination: dict[str, int] = {}
        for k in keys:
            for name, c in self.factors[k][0].items():
                combination[name] = c * touched[k]
        if all(c < 0 for c in combination.values()):  # (-gid.x + 3 <= 0): keep gid.x
            combination = {name: -c for name, c in combination.items()}
            allowed = iv.normal((-b + 1, -a + 1) for a, b in allowed)
        self.factors = [f for k, f in enumerate(self.factors) if k not in touched]
        self.factors.append((combination, allowed))
        return None

    def coordinate_set(self, form: Poly, width: int) -> iv.Intervals | None:
        use = self.in_factors(form)
        if use is None:
            return None
        values = iv.normal([(form.constant, form.constant + max(width, 1))])
        for k in sorted(use, key=lambda k: abs(use[k])):
            summed = iv.sum_set(values, use[k], self.factors[k][1])
            if summed is None:
                return None
            values = summed
        return values


def satisfying(values: iv.Intervals, constant: int, op: str) -> iv.Intervals:
    """The values w with ``w + constant op 0``."""
    if op == "<":
        return iv.clip(values, None, -constant)
    if op == "<=":
        return iv.clip(values, None, -constant + 1)
    if op == "==":
        return iv.clip(values, -constant, -constant + 1)
    hole = -constant  # "!="
    return iv.normal([*iv.clip(values, None, hole), *iv.clip(values, hole + 1, None)])
