"""The dispatch that makes a shader write each result exactly, read from its stores.

Along each coordinate of each write, the address's factors (after its guards, see
:mod:`.space`) are taken from the smallest coefficient up: a factor holding a workgroup ID
must take enough values to reach the next factor, or the end of the result, no further
than its guards allow (``index = gid.y * W + gid.x``: x must reach W, y the rows). A shader
that only accumulates into its results (atomics) is read through its reads of the inputs
instead. The dispatch found is then judged (:func:`~.coverage.judge`); when it is not
exact, the usual spreads of one invocation per element are tried as well.

Where the addresses read push constants (``out[x * pc.H + y]`` guarded by ``x < pc.W``),
nothing is proven; :func:`covering_assuming_sizes` then tries the push constants as
sizes of the op's tensors, which is what shader authors pass there.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from .coverage import (
    AXES,
    MAX_GROUPS,
    Dispatch,
    Extent,
    Verdict,
    Written,
    judge,
    memoized,
    prepare,
)
from .forms import Poly
from .records import ShaderAccess
from .space import Space


@dataclass(frozen=True, slots=True, eq=False)  # (compared by identity)
class Covering:
    """The workgroup counts derived from the writes' addresses, and what ``judge`` says
    of them."""

    groups: tuple[int, int, int]
    verdicts: tuple[Verdict, ...]
    # invocation axis -> the result and the result axis it walks, for the notes
    walks: tuple[str, ...]
    # the push constants (as the shader names them) and the values the verdicts assume
    assumed: tuple[tuple[str, int], ...] = ()

    @property
    def exact(self) -> bool:
        """Every result provably written, nothing provably written past a buffer (an
        image's or a tensor's writes outside it are discarded)."""
        return all(v.complete and not v.buffer_overruns for v in self.verdicts)


def covering_dispatch(analysis: ShaderAccess, results: Sequence[Extent],
                      bound: Sequence[Extent] = ()) -> Covering | None:
    """The smallest workgroup counts whose writes reach every unit of every result, read
    from the addresses (with their guards); when that reading does not prove itself (a
    row stride that is ``gl_NumWorkGroups.x * 8``), the usual spreads of one invocation
    per unit are tried too. None when no write's address is known."""
    if analysis.unknown is not None:
        return None
    return memoized("cover", analysis, (tuple(results), tuple(bound)),
                     lambda: _covering(analysis, results, bound))


# Past this many push constants in the writes, or this many hypotheses (each one judges
# every candidate dispatch), no sizes are assumed.
MAX_ASSUMED = 4
MAX_HYPOTHESES = 256


def covering_assuming_sizes(analysis: ShaderAccess, results: Sequence[Extent],
                            bound: Sequence[Extent], unproven: Covering) -> Covering | None:
    """Where the writes' addresses, guards or loops read push constants, the covering
    that is exact when they hold sizes of the op's tensors: each takes each dimension of
    the results and operands in turn, and one that only scales an address (never bounds
    a guard or a loop: ncnn's ``cstep``, ggml's ``nb01``) also each stride of the results
    (``gz * pc.cstep + gy * pc.w + gx`` into a 3 x 5 x 7 result: cstep = 35); where
    that is too many hypotheses, the results' dimensions and strides only; of the
    hypotheses under which a dispatch writes every result exactly, the one whose
    invocation axes walk the results' own axes wins (``out[x * pc.H + y]`` into a
    36 x 20 result: H = 20, x along the 36 rows), the first of equals otherwise. The
    ``unproven`` covering's workgroups are kept where they are exact under that hypothesis
    too. None when no push constant is read there or none fits."""
    if analysis.unknown is not None:
        return None
    bounding, scaling = _push_constants_written_by(analysis, results)
    if not bounding and not scaling or len(bounding) + len(scaling) > MAX_ASSUMED:
        return None
    choices = _choices(analysis, results, bound, len(bounding), len(scaling))
    if choices is None:
        return None
    best: tuple[int, Covering, tuple[tuple[str, int], ...]] | None = None
    plausible: tuple[int, Covering, tuple[tuple[str, int], ...]] | None = None
    for values in itertools.product(*choices):
        assumed = tuple(zip((*bounding, *scaling), values, strict=True))
        covering = _covering(analysis, results, bound, assumed)
        if covering is None or not (covering.exact or _unrefuted(covering)):
            continue
        aligned = sum(not walk.endswith("flattened") for walk in covering.walks)
        if covering.exact and (best is None or aligned > best[0]):
            best = aligned, covering, assumed
        elif not covering.exact and (plausible is None or aligned > plausible[0]):
            plausible = aligned, covering, assumed
    if best is None and plausible is not None and not _unrefuted(unproven):
        # No hypothesis proves itself (a guard that mixes a loop's counter with the
        # invocation ID: `col = col0 + tid; if (col >= pc.KX) break;`), but one reads the
        # dispatch from the addresses where the unproven covering only spreads one
        # invocation per element: the addresses' reading, still marked unproven.
        best = plausible
    if best is None:
        return None
    _aligned, covering, assumed = best
    in_block_order = sorted(assumed, key=lambda a: int(a[0].removeprefix("pc.")))
    named = tuple((analysis.name_of(s), v) for s, v in in_block_order)
    kept = tuple(judge(analysis, unproven.groups, results, bound, assumed))
    if all(v.complete and not v.buffer_overruns for v in kept):
        return Covering(unproven.groups, kept, unproven.walks, named)
    return Covering(covering.groups, covering.verdicts, covering.walks, named)


def _choices(analysis: ShaderAccess, results: Sequence[Extent], bound: Sequence[Extent],
             bounding: int, scaling: int) -> list[list[int]] | None:
    """The values each push constant is tried with (the bounding ones first): dimensions
    of every tensor, strides and dimensions of the results for the scaling ones; else
    the results' dimensions and strides alone. None when both are too many."""
    strides = _strides(analysis, results)
    dims = {d for extent in results for d in extent.shape if d > 1}
    everything = {d for extent in bound for d in extent.shape if d > 1} | dims
    for sizes, scales in ((everything, everything | strides), (dims, strides)):
        choices = [sorted(sizes)] * bounding + [sorted(scales)] * scaling
        if all(choices) and math.prod(map(len, choices)) <= MAX_HYPOTHESES:
            return choices
    return None


def _unrefuted(covering: Covering) -> bool:
    """Whether a covering read from the addresses (its walks name the axes) is only
    unproven: no unit provably missed, no write provably outside a result."""
    return any(" walks " in walk for walk in covering.walks) and all(
        not v.missing and not v.overruns for v in covering.verdicts)


def _push_constants_written_by(analysis: ShaderAccess, results: Sequence[Extent]
                               ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The push-constant symbols of the writes into ``results``: those in their guards
    and loop tests (they bound an invocation axis or a loop), then those only in their
    addresses (they scale one)."""
    loops = dict(analysis.loops)
    addresses: list[Poly] = []
    tests: list[Poly] = []
    for extent in results:
        for access in analysis.writes_to(extent.set, extent.binding):
            addresses += access.coordinates or ()
            tests += [g.form for g in access.guards]
            tests += [c.form for counter in access.loops for c in loops.get(counter, ())]

    def named(forms: list[Poly]) -> set[str]:
        return {s for form in forms for s in form.symbols if s.startswith("pc.")}

    bounding = named(tests)
    return tuple(sorted(bounding)), tuple(sorted(named(addresses) - bounding))


def _strides(analysis: ShaderAccess, results: Sequence[Extent]) -> set[int]:
    """The row-major strides of each buffer result above its last axis, in the units its
    stores write (a ``vec4`` store into a float buffer: four floats)."""
    found: set[int] = set()
    for extent in results:
        if extent.kind != "buffer":
            continue
        for access in analysis.writes_to(extent.set, extent.binding):
            unit = max(access.width, 1)
            for k in range(1, len(extent.shape)):
                stride = math.prod(extent.shape[k:]) * extent.element_bytes
                if stride % unit == 0:
                    found.add(stride // unit)
    return found


def _covering(analysis: ShaderAccess, results: Sequence[Extent],
              bound: Sequence[Extent], assumed: tuple[tuple[str, int], ...] = ()
              ) -> Covering | None:
    # Every axis as large as a device allows: what remains of each term after its guards
    # is what the results need.
    env = Dispatch(analysis, (MAX_GROUPS,) * 3, [*results, *bound], assumed)
    need = [0, 0, 0]
    walks: list[str] = []
    sources = [(extent, access) for extent in results
               for access in analysis.writes_to(extent.set, extent.binding)]
    if sources and all(access.kind == "atomic" for _e, access in sources):
        # A shader that only accumulates into its results (a histogram, a sum) must read
        # all of its inputs: their reads say how far the invocations must reach.
        sources += [(extent, access) for extent in bound for access in analysis.accesses
                    if access.kind == "read"
                    and (access.set, access.binding) == (extent.set, extent.binding)]
    known = False
    for extent, access in sources:
        axes = extent.axes
        if access.coordinates is None or axes is None:
            continue
        known = True
        if any(_dispatch_dependent(c) for c in access.coordinates):
            continue  # the stride changes with the dispatch: tried below instead
        prepared = prepare(access, extent, env, Written(access))
        if prepared is None or prepared.never:
            continue
        for k, (form, axis) in enumerate(zip(prepared.coordinates, axes, strict=True)):
            width = access.width if extent.kind != "image" and k == len(axes) - 1 else 1
            _needs(analysis, prepared.space, form, axis, width, need, walks, extent, k)
    if not known:
        return None
    candidates: list[tuple[tuple[int, int, int], tuple[str, ...]]] = []
    if any(need):
        structural = tuple(min(MAX_GROUPS, max(1, n)) for n in need)
        ordered = sorted(dict.fromkeys(walks), key=lambda w: w[0])  # x, y, z
        candidates.append((structural, tuple(ordered)))  # type: ignore[arg-type]
    units = max(e.units for e in results)
    for extent in results:
        # Several stores at fixed offsets from one address (a 2 x 2 block per
        # invocation): one invocation per block of them.
        block = units_per_invocation(analysis, extent)
        if block > 1:
            for spread in _spreads(analysis.local_size, -(-extent.units // block)):
                candidates.append((spread, ("one invocation per block of its stores",)))
    for extent in results:
        shaped = _along_the_shape(analysis.local_size, extent)
        if shaped is not None:
            candidates.append((shaped, ("one invocation per element, x along the last axis "
                                        f"of {extent.label or 'the result'} and y along the "
                                        "one before",)))
    for spread in _spreads(analysis.local_size, units):
        candidates.append((spread, ("one invocation per element",)))
    first: Covering | None = None
    for groups, described in dict.fromkeys(candidates):
        covering = Covering(groups, tuple(judge(analysis, groups, results, bound, assumed)),
                            described)
        if covering.exact:
            return covering
        first = first or covering
    return first


def _dispatch_dependent(form: Poly) -> bool:
    """Whether an invocation ID is multiplied by ``gl_NumWorkGroups`` (not a grid-stride
    loop's counter, whose step it is)."""
    return any(any(s.startswith("nwg.") for s in m) and any(
        s.startswith(("wg.", "lid.")) for s in m) for m, _c in form.terms)


def units_per_invocation(analysis: ShaderAccess, extent: Extent) -> int:
    """How many units of ``extent`` one invocation's stores cover, when every store into
    it runs at most once (outside loops) and its width is known; 0 otherwise. Stores to
    the same address count once."""
    total = 0
    seen = set()
    for access in analysis.writes_to(extent.set, extent.binding):
        if access.loops or access.width <= 0:
            return 0
        if access.coordinates is not None:
            if (access.coordinates, access.width) in seen:
                continue  # the same element again (`if (...) y[i] = a; else y[i] = b;`)
            seen.add((access.coordinates, access.width))
        if extent.kind == "buffer":
            total += max(1, access.width // max(extent.element_bytes, 1))
        elif extent.kind == "tensor":
            total += access.width
        else:
            total += 1
    return total


def _along_the_shape(local: tuple[int, int, int],
                     extent: Extent) -> tuple[int, int, int] | None:
    """For a local size with a y axis: one invocation per element with x along the
    result's last axis (an image's width), y along the one before and z over the rest, as
    `out[gid.y * width + gid.x]` reads when its width cannot be followed (a push
    constant); None for a one-row result or a flat local size."""
    if local[1] == 1:
        return None
    if extent.kind == "image":
        dims = [*(extent.axes or ()), 1, 1][:3]
    else:
        shape = extent.shape
        dims = [shape[-1] if shape else 1, shape[-2] if len(shape) > 1 else 1,
                math.prod(shape[:-2])]
    if dims[1] == 1:
        return None
    x, y, z = (min(MAX_GROUPS, max(1, -(-d // n))) for d, n in zip(dims, local, strict=True))
    return x, y, z


def _spreads(local: tuple[int, int, int], units: int) -> list[tuple[int, int, int]]:
    """One invocation per unit: spread over the axes whose local size is more than one
    (a square grid for an 8 x 8 shader), or all along x, or all along y."""
    groups = max(1, -(-units // math.prod(local)))
    used = [axis for axis in range(3) if local[axis] > 1] or [0]
    counts = [1, 1, 1]
    remaining = groups
    for position, axis in enumerate(used):
        share = max(1, round(remaining ** (1 / (len(used) - position))))
        while share ** (len(used) - position) < remaining:
            share += 1
        counts[axis] = min(share, MAX_GROUPS)
        remaining = -(-remaining // share)
    found = [tuple(counts), (min(groups, MAX_GROUPS), 1, 1), (1, min(groups, MAX_GROUPS), 1)]
    return list(dict.fromkeys(found))  # type: ignore[arg-type]


def _needs(analysis: ShaderAccess, space: Space, form: Poly, total: int, width: int,
           need: list[int], walks: list[str], extent: Extent, coordinate: int) -> None:
    """Along one coordinate: walk the address's factors from the smallest coefficient
    up; one that holds a workgroup ID must take enough values to reach the next factor
    (or the end of the result), no more than its guards let it."""
    use = space.in_factors(form)
    if not use:
        return
    # (of factors with the same coefficient, those without a workgroup ID first: their
    # values are fixed by the local size, a workgroup count takes what they leave, as in
    # `16 * gid.y + gid.x` with a local size of 16 x 2, where wg.x and lid.y both step 16)
    factors = sorted(((c, k) for k, c in use.items() if c > 0),
                     key=lambda t: (t[0], any(n.startswith("wg.")
                                              for n in space.factors[t[1]][0])))
    span = max(width, 1)
    local = analysis.local_size
    for coefficient, k in factors:
        members, values = space.factors[k]
        following = next((c for c, _k in factors if c > coefficient), None)
        # up to the next term, never past the end of the result
        reach = total - form.constant if following is None \
            else min(following, total - form.constant)
        groups = [n for n in members if n.startswith("wg.")]
        # (a factor's values start at 0 or above: enough of them is up to its largest)
        available = values[-1][1] if values else 0
        if groups:
            axis = AXES.index(groups[0][-1])
            per_group = _per_group(members, groups[0], local[axis])
            if per_group is None or len(groups) > 1:
                return  # workgroup IDs combined in a way that does not say
            # Blocks of `span` every `coefficient`: enough of them to start every block
            # below the reach, fewer when they overlap.
            wanted = max(1, min(-(-reach // coefficient),
                                -(-(reach - span) // coefficient) + 1))
            count = min(wanted, available)
            need[axis] = max(need[axis], -(-count // per_group))
            step, steps = coefficient, count
            if per_group == 1 and local[axis] > 1 and coefficient % local[axis] == 0 \
                    and any(space.factors[j][0] == {f"lid.{groups[0][-1]}": 1}
                            and c * local[axis] == coefficient for c, j in factors):
                step, steps = coefficient // local[axis], count * local[axis]  # gid
            walks.append(f"{groups[0][-1]} walks {_walked(extent, coordinate, step, steps)}")
        else:
            count = available
        span = span + coefficient * (max(count, 1) - 1)
        if following is not None:
            span = min(span, following)


def _per_group(members: dict[str, int], group: str, local: int) -> int | None:
    """How many consecutive values of a factor one workgroup provides: 1 for the
    workgroup ID alone, the local size for the global ID (``L * wg + lid``, with or
    without a grid-stride loop's counter beside it)."""
    if members == {group: 1}:
        return 1
    lid = f"lid.{group[-1]}"
    if members.get(group) == local and (members.get(lid) == 1 or local == 1):
        return local
    return None


def _walked(extent: Extent, coordinate: int, coefficient: int, count: int) -> str:
    """Which axis of the result a term steps along: ``the width of result 0 (...)``,
    ``axis 2 (40) of result 0 (...)``, or the whole result, flattened."""
    label = extent.label or "the result"
    if extent.kind == "image":
        return f"the {('width', 'height', 'depth')[coordinate]} of {label}"
    if extent.kind == "tensor":
        return f"dimension {coordinate} of {label}"
    if coefficient % extent.element_bytes == 0:
        stride = coefficient // extent.element_bytes
        step = 1
        for axis in range(len(extent.shape) - 1, -1, -1):
            if step == stride and extent.shape[axis] > 1 and count <= extent.shape[axis]:
                return f"axis {axis} ({extent.shape[axis]}) of {label}"
            step *= extent.shape[axis]
    return f"{label}, flattened" if len([d for d in extent.shape if d > 1]) > 1 else label
