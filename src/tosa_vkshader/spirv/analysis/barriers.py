"""Workgroup-shared memory written by one invocation and read by another with no barrier
in between.

For each store and load of the same shared variable: is there a path from the store to
the load (in program order, around loops too) that passes no ``OpControlBarrier`` with
workgroup execution scope? And does some invocation read an element that another one
wrote? Both are decided, not guessed: the second by listing, for one workgroup, which
invocation touches which element (small spaces only; anything the analysis cannot list
is left alone).
"""

from __future__ import annotations

from ..grammar import OP
from .body import Body
from .evaluate import AXES, Evaluation
from .points import TooMany, assignments
from .records import Access, Condition, Race

_WORKGROUP_SCOPE = 2
MAX_RACES = 4


def barrier_positions(evaluation: Evaluation) -> dict[int, list[int]]:
    """block -> positions of its workgroup barriers."""
    found: dict[int, list[int]] = {}
    for label, block in evaluation.body.blocks.items():
        for position, inst in enumerate(block.instructions):
            if inst.opcode == OP["OpControlBarrier"]:
                scope = evaluation.value(inst.operands[0])
                if getattr(scope, "is_const", False) and scope.constant == _WORKGROUP_SCOPE:  # type: ignore
                    found.setdefault(label, []).append(position)
    return found


def reaches_without_barrier(body: Body, barriers: dict[int, list[int]],
                            start: tuple[int, int], end: tuple[int, int]) -> bool:
    """Whether control can go from instruction ``start`` to ``end`` (block, position)
    without passing a barrier."""
    (first, at), (last, to) = start, end
    here = barriers.get(first, [])
    if first == last and at < to and not any(at < b < to for b in here):
        return True
    if any(b > at for b in here):
        return False
    seen: set[int] = set()
    todo = list(body.blocks[first].successors)
    while todo:
        block = todo.pop()
        if block in seen:
            continue
        seen.add(block)
        positions = barriers.get(block, [])
        if block == last and not any(b < to for b in positions):
            return True
        if not positions:
            todo.extend(body.blocks[block].successors)
    return False


def races(evaluation: Evaluation, accesses: list[Access],
          loops: dict[str, tuple[Condition, ...]], value_sets: dict[str, tuple[int, ...]]
          ) -> list[Race]:
    shared = [a for a in accesses if a.resource == "shared" and a.coordinates is not None]
    if not shared:
        return []
    barriers = barrier_positions(evaluation)
    found: list[Race] = []
    for store in (a for a in shared if a.writes):
        for load in (a for a in shared if a.kind in ("read", "atomic")):
            if load.binding != store.binding or load is store \
                    or store.kind == load.kind == "atomic":  # atomics do not race
                continue
            if not reaches_without_barrier(evaluation.body, barriers,
                                           (store.block, store.position),
                                           (load.block, load.position)):
                continue
            example = _conflict(store, load, evaluation.local_size, loops, value_sets)
            if example is not None:
                found.append(Race(store.name, store.place, load.place, example))
                if len(found) >= MAX_RACES:
                    return found
    return found


def _points(access: Access, local_size: tuple[int, int, int],
            loops: dict[str, tuple[Condition, ...]], value_sets: dict[str, tuple[int, ...]]
            ) -> list[tuple[tuple[int, ...], int, int]] | None:
    """(iteration, word, invocation) for each time an invocation of one workgroup
    touches a 4-byte word of the variable, in the order of the loops' iterations; None
    when the access cannot be listed."""
    assert access.coordinates is not None
    address = access.coordinates[0]
    symbols = set(address.symbols)
    for guard in access.guards:
        symbols |= guard.form.symbols
    domains: dict[str, tuple[int, ...]] = {
        f"lid.{a}": tuple(range(local_size[k])) for k, a in enumerate(AXES)}
    domains.update(value_sets)
    wanted = sorted(s for s in symbols if not s.startswith("wg."))
    if any(s not in domains and s not in loops for s in wanted):
        return None  # runtime values, array lengths...: not listed
    wanted = sorted(set(wanted) | {f"lid.{a}" for k, a in enumerate(AXES) if local_size[k] > 1})
    loop_symbols = [s for s in wanted if not s.startswith("lid.")]
    points = assignments(wanted, domains, loops, access.guards,
                         {f"wg.{a}": 0 for a in AXES})
    if points is None:
        return None
    found = []
    try:
        for values in points:
            start = address.value(values)
            if start is None:
                return None
            iteration = tuple(domains[s].index(values[s]) if s in domains else values[s]
                              for s in loop_symbols)
            who = values.get("lid.x", 0) + local_size[0] * (
                values.get("lid.y", 0) + local_size[1] * values.get("lid.z", 0))
            for word in range(start // 4, (start + max(access.width, 1) - 1) // 4 + 1):
                found.append((iteration, word, who))
    except TooMany:
        return None
    return sorted(found)


def _conflict(store: Access, load: Access, local_size: tuple[int, int, int],
              loops: dict[str, tuple[Condition, ...]],
              value_sets: dict[str, tuple[int, ...]]) -> str | None:
    stored = _points(store, local_size, loops, value_sets)
    read = _points(load, local_size, loops, value_sets) if stored else None
    if not stored or not read:
        return None
    writers: dict[int, set[int]] = {}
    for _iteration, word, who in stored:
        holders = writers.setdefault(word, set())
        if len(holders) < 2:
            holders.add(who)
    for _iteration, word, reader in read:
        others = sorted(writers.get(word, set()) - {reader})
        if others:
            return (f"invocation {_local(others[0], local_size)} writes word {word} "
                    f"(byte {word * 4}) of `{store.name}`, which invocation "
                    f"{_local(reader, local_size)} reads")
    return None


def _local(index: int, local_size: tuple[int, int, int]) -> str:
    """The local invocation ID of a local index, as the shader writes it."""
    x = index % local_size[0]
    y = index // local_size[0] % local_size[1]
    z = index // (local_size[0] * local_size[1])
    if local_size[1] == 1 and local_size[2] == 1:
        return str(x)
    return f"({x}, {y}, {z})" if local_size[2] > 1 else f"({x}, {y})"
