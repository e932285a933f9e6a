"""Every invocation (and loop iteration) at which an access runs, one by one.

For small spaces only (a workgroup's invocations times a few loop iterations): the
barrier analysis asks which invocation touches which shared element. Loop counters run
from 0 while their loop's own test holds; the other conditions filter.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from .records import Condition

MAX_POINTS = 1 << 17
MAX_ITERATIONS = 4096


class TooMany(Exception):
    """More points than :data:`MAX_POINTS`."""


def assignments(symbols: Sequence[str], domains: Mapping[str, Sequence[int]],
                loops: Mapping[str, tuple[Condition, ...]],
                guards: Sequence[Condition], fixed: Mapping[str, int]
                ) -> Iterator[dict[str, int]] | None:
    """The values of ``symbols`` for which every guard holds: each symbol in ``domains``
    takes its listed values, each loop counter (``t.*``, in ``loops`` with the loop's
    test) counts up from 0 while that test holds. None when some symbol has neither."""
    if any(s not in domains and s not in loops for s in symbols):
        return None
    order = [s for s in symbols if s in domains] + _loop_order(
        [s for s in symbols if s not in domains], loops)
    return _walk(order, 0, dict(fixed), domains, loops, list(guards), [0])


def _loop_order(counters: list[str], loops: Mapping[str, tuple[Condition, ...]]
                ) -> list[str]:
    """Outer loops first: a loop whose test mentions another counter comes after it."""
    ordered: list[str] = []
    pending = list(counters)
    while pending:
        for symbol in pending:
            needs = {s for c in loops[symbol] for s in c.form.symbols
                     if s.startswith("t.") and s != symbol}
            if needs <= set(ordered) or not (needs & set(pending)):
                ordered.append(symbol)
                pending.remove(symbol)
                break
        else:
            ordered.extend(pending)
            break
    return ordered


def _holds(conditions: Sequence[Condition], values: dict[str, int]) -> bool | None:
    """False when a condition whose symbols are all known fails; True when all hold;
    None when some cannot be decided yet."""
    undecided = False
    for condition in conditions:
        value = condition.form.value(values)
        if value is None:
            undecided = True
        elif not condition.holds(value):
            return False
    return None if undecided else True


def _walk(order: list[str], depth: int, values: dict[str, int],
          domains: Mapping[str, Sequence[int]], loops: Mapping[str, tuple[Condition, ...]],
          guards: list[Condition], count: list[int]) -> Iterator[dict[str, int]]:
    if depth == len(order):
        if _holds(guards, values) is not False:
            count[0] += 1
            if count[0] > MAX_POINTS:
                raise TooMany
            yield dict(values)
        return
    symbol = order[depth]
    if symbol in domains:
        candidates: Sequence[int] | range = domains[symbol]
        test: tuple[Condition, ...] = ()
    else:
        candidates, test = range(MAX_ITERATIONS), loops[symbol]
    for candidate in candidates:
        values[symbol] = candidate
        if test and _holds(test, values) is False:
            break
        if _holds(guards, values) is False:
            continue
        yield from _walk(order, depth + 1, values, domains, loops, guards, count)
    else:
        if test:  # the loop never stopped within MAX_ITERATIONS
            raise TooMany
    values.pop(symbol, None)
