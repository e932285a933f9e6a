"""What a dispatch writes into each result, and the dispatch that writes each one exactly.

Given the analysis of a module (:class:`~.records.ShaderAccess`), the local size, a
dispatch (workgroup counts) and the results as the runtime lays them out
(:class:`Extent`), each write is worked out as a set: the invocation variables take their
ranges (``wg.x`` in ``[0, dispatched)``, ``lid.x`` in ``[0, local size)``, loop counters
as far as their loop's test allows), the guards narrow them (a guard on part of the
address, ``gid.x < width``, narrows that part; one on the whole address clips it), and
the address's terms are summed as sets of intervals. A buffer is measured in bytes, an
image in texels, a tensor in elements; each result's union is compared with its extent:

- ``complete``: the writes whose guards are all understood cover every unit;
- ``missing``: even counting every write as if all its guards held, some units are never
  written (proven only when no write to the result has an unknown address);
- ``overruns``: a write whose guards are all understood reaches past the result;
  ``risky``: one that may, depending on what the analysis cannot read (push constants,
  data, conditions it does not follow).

The other way round, the dispatch that writes each result exactly, is :mod:`.derive`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from . import intervals as iv
from .forms import Poly, is_runtime
from .records import Access, Condition, ShaderAccess
from .space import Space

AXES = "xyz"
MAX_GROUPS = 65535  # maxComputeWorkGroupCount every Vulkan device supports


@dataclass(frozen=True, slots=True)
class Extent:
    """A resource as the reference runtime lays it out: ``shape`` is the op's tensor;
    a buffer holds ``elements x element_bytes`` bytes of data in an allocation of
    ``elements x texel_bytes`` (a vec4 format on a float tensor is four times the data)."""

    set: int
    binding: int
    kind: str  # "buffer", "image", "tensor"
    shape: tuple[int, ...]
    element_bytes: int = 4
    texel_bytes: int = 4
    label: str = ""  # "result 0 (tensor<64x64xf32>)"

    @property
    def elements(self) -> int:
        return math.prod(self.shape)

    @property
    def allocation_bytes(self) -> int:
        return max(self.elements * self.texel_bytes, self.elements * self.element_bytes)

    @property
    def axes(self) -> tuple[int, ...] | None:
        """The extent of each coordinate an access gives: bytes for a buffer, (width,
        height) for an image (from NHWC), the shape for a tensor."""
        if self.kind == "buffer":
            return (self.elements * self.element_bytes,)
        if self.kind == "image":  # (width, height[, depth]) from N[D]HWC, HWC or HW
            shape = self.shape
            if len(shape) == 5 and shape[0] == 1:
                return (shape[3], shape[2], shape[1])
            if len(shape) == 4 and shape[0] == 1:
                return (shape[2], shape[1])
            if len(shape) in (2, 3):
                return (shape[1], shape[0])
            return None
        return self.shape

    @property
    def units(self) -> int:
        """What coverage counts: elements, texels (pixels of an image)."""
        axes = self.axes
        if self.kind == "buffer" or axes is None:
            return self.elements
        return math.prod(axes)

    @property
    def unit_name(self) -> str:
        return "texels" if self.kind == "image" else "elements"

    def constants(self) -> dict[str, int]:
        """The values of the size queries of this resource."""
        found: dict[str, int] = {}
        axes = self.axes or ()
        key = f"{self.set}.{self.binding}"
        if self.kind == "image":
            for axis, value in enumerate(axes):
                found[f"isz.{key}.{axis}"] = value
        elif self.kind == "tensor":
            for dimension, value in enumerate(self.shape):
                found[f"tsz.{key}.{dimension}"] = value
        return found

    def array_length(self, offset: int, stride: int) -> int:
        """``.length()`` of the runtime array at ``offset`` in the allocation."""
        return max(0, (self.elements * self.texel_bytes - offset) // stride) if stride else 0

    def coordinate(self, unit: int) -> tuple[int, ...]:
        """The result index of a unit (a buffer's element, an image's texel)."""
        if self.kind == "image":  # [z,] y, x (x fastest), with N = 0 for N[D]HWC
            texel = _unravel(unit, tuple(reversed(self.axes or (1, 1))))
            return (0, *texel) if len(self.shape) >= 4 else texel
        return _unravel(unit, self.shape)


def _unravel(unit: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The row-major index of ``unit`` in ``shape``."""
    index: list[int] = []
    for size in reversed(shape):
        index.append(unit % size)
        unit //= size
    return tuple(reversed(index))


@dataclass(frozen=True, slots=True, eq=False)  # (compared by identity)
class Overrun:
    access: Access
    units: int  # how many elements (texels) past the result
    detail: str  # which invocations, or why it may happen
    # A buffer's: whether it reaches past the allocation too, not only past the result's
    # data (a multi-component format makes the allocation larger than the data).
    past_allocation: bool = True


@dataclass(frozen=True, slots=True, eq=False)  # (compared by identity)
class Verdict:
    """One result under one dispatch."""

    extent: Extent
    writes: tuple[Access, ...]
    complete: bool = False
    missing: int | None = None  # units provably never written
    first_missing: tuple[int, ...] | None = None
    overruns: tuple[Overrun, ...] = ()
    risky: tuple[Overrun, ...] = ()
    unknown: str | None = None  # why completeness cannot be decided
    past: int = 0  # units the overruns write outside the result, all writes together
    # When the addresses are not all known: the most units the writes can fill (each
    # runs once per invocation and loop iteration), which may prove `missing` all the same
    most: int | None = None

    @property
    def buffer_overruns(self) -> tuple[Overrun, ...]:
        """The overruns whose values are lost or land in other memory: a buffer's (past
        the result's data; an image's or a tensor's writes outside it are discarded)."""
        return self.overruns if self.extent.kind == "buffer" else ()


# The working state of one judgement is made by the thousand on a large model: plain
# slotted classes (a dataclass costs its generated methods at import, on every start).

class Written:
    """One write under one dispatch: the units of the result it covers (row-major), how
    many fall outside the resource's memory (``outside``) and outside the result
    (``past``: for a buffer, past the result's data, which a multi-component format makes
    smaller than the allocation; what a run's write check sees), and what made it
    inexact."""

    __slots__ = ("access", "inside", "outside", "past", "beyond", "exact", "why", "runtime",
                 "detail")

    def __init__(self, access: Access) -> None:
        self.access = access
        self.inside: iv.Intervals | None = None
        self.outside = 0
        self.past = 0
        self.beyond: iv.Intervals = ()  # a buffer's units outside the result (for the union)
        self.exact = True
        self.why: str | None = None  # what the analysis could not read (inexact or unknown)
        self.runtime = False  # the unknown part is runtime data
        self.detail = ""


# -- the environment of one dispatch --------------------------------------------------------

class Dispatch:
    """One dispatch of one module over its resources: the values it gives the symbols."""

    __slots__ = ("analysis", "groups", "extents", "constants")

    def __init__(self, analysis: ShaderAccess, groups: tuple[int, int, int],
                 extents: Sequence[Extent], assumed: Sequence[tuple[str, int]] = ()) -> None:
        self.analysis, self.groups, self.extents = analysis, groups, extents
        self.constants: dict[str, Poly] = {
            f"nwg.{axis}": Poly.const(count)
            for axis, count in zip(AXES, groups, strict=True)}
        # runtime symbols (push constants) given values by hypothesis (derive.py)
        self.constants.update((name, Poly.const(value)) for name, value in assumed)
        for extent in extents:
            for name, value in extent.constants().items():
                self.constants[name] = Poly.const(value)

    def resolve(self, form: Poly) -> Poly:
        """``form`` with the dispatch and the resources' sizes filled in."""
        more = {s: self._length(s) for s in form.symbols if s.startswith("len.")}
        return form.substitute({**self.constants,
                                **{k: v for k, v in more.items() if v is not None}}) or form

    def _length(self, symbol: str) -> Poly | None:
        _len, set_, binding, offset, stride = symbol.split(".")
        for extent in self.extents:
            if (extent.set, extent.binding) == (int(set_), int(binding)) \
                    and extent.kind == "buffer":
                return Poly.const(extent.array_length(int(offset), int(stride)))
        return None

    def domain(self, name: str, guards: Sequence[Condition]) -> iv.Intervals | None:
        local = self.analysis.local_size
        axis = AXES.index(name[-1]) if name[-1] in AXES else -1
        if name.startswith("wg."):
            return ((0, self.groups[axis]),)
        if name.startswith("lid."):
            return ((0, local[axis]),)
        listed = dict(self.analysis.value_sets).get(name)
        if listed is not None:
            return iv.of_values(listed)
        if name.startswith("t."):
            bound = self._iterations(name)
            return ((0, bound),) if bound is not None else None
        return None

    def _iterations(self, counter: str) -> int | None:
        """An upper bound on a loop's iterations from its test (the largest over every
        invocation), or None."""
        test = dict(self.analysis.loops).get(counter)
        if not test:
            return None
        best: int | None = None
        for condition in test:
            form = self.resolve(condition.form)
            a = form.coefficient(counter)
            rest = form - Poly.symbol(counter, a)
            if a <= 0 or condition.op not in ("<", "<=") or counter in rest.symbols \
                    or not rest.is_linear:
                continue
            low = self._minimum(rest)
            if low is None:
                continue
            # a*t + rest < 0 for every t below the bound: t < -rest/a
            limit = -low + (1 if condition.op == "<=" else 0)
            bound = max(0, -(-limit // a))
            best = bound if best is None else min(best, bound)
        return best

    def _minimum(self, form: Poly) -> int | None:
        total = form.constant
        for name, c in form.linear().items():
            domain = self.domain(name, ()) if not name.startswith("t.") else None
            if not domain:
                return None
            total += c * (domain[0][0] if c > 0 else domain[-1][1] - 1)
        return total


# -- one write ----------------------------------------------------------------------------

class Prepared:
    """One write's variables grouped by its guards, under one dispatch."""

    __slots__ = ("space", "coordinates", "skipped", "never")

    def __init__(self, space: Space, coordinates: list[Poly]) -> None:
        self.space, self.coordinates = space, coordinates
        self.skipped: list[str] = []  # the guards that could not be used, in words
        self.never = False  # a guard that never holds


def prepare(access: Access, extent: Extent, env: Dispatch, found: Written
             ) -> Prepared | None:
    """The write's space, or None (``found`` then says why)."""
    axes = extent.axes
    if access.coordinates is None:
        found.exact, found.why = False, access.unknown
        return None
    if axes is None or len(access.coordinates) != len(axes):
        found.exact, found.why = False, (
            f"{len(access.coordinates)} coordinates for {extent.kind} of shape "
            f"{list(extent.shape)}")
        return None
    coordinates = [env.resolve(c) for c in access.coordinates]
    runtime = sorted({s for c in coordinates for s in c.symbols if is_runtime(s)})
    if runtime:
        found.exact, found.runtime = False, True
        found.why = f"the address depends on {_names(env.analysis, runtime)}"
        return None
    if not all(c.is_linear for c in coordinates):
        found.exact, found.why = False, "the address multiplies invocation IDs together"
        return None
    guards = [Condition(env.resolve(g.form), g.op) for g in access.guards]
    names = {s for c in coordinates for s in c.symbols}
    names |= {s for g in guards for s in g.form.symbols if not is_runtime(s)}
    domains: dict[str, iv.Intervals] = {}
    for name in sorted(names):
        domain = env.domain(name, guards)
        if domain is None:
            found.exact, found.why = False, f"{_names(env.analysis, [name])} has no known range"
            return None
        domains[name] = domain
    prepared = Prepared(Space(domains), coordinates)
    for guard in guards:
        runtime_guard = sorted(s for s in guard.form.symbols if is_runtime(s))
        if runtime_guard:
            prepared.skipped.append(f"a condition on {_names(env.analysis, runtime_guard)}")
            found.runtime = True
        elif guard.form.is_const:
            prepared.never |= not guard.holds(guard.form.constant)
        elif not guard.form.is_linear:
            prepared.skipped.append("a condition that multiplies invocation IDs")
        else:
            problem = prepared.space.apply(guard, coordinates)
            if problem is not None:
                prepared.skipped.append(problem)
    if access.opaque_guard:
        prepared.skipped.append("a condition the analysis cannot read (data, or control "
                                "flow it does not follow)")
    return prepared


def _written(access: Access, extent: Extent, env: Dispatch) -> Written:
    found = Written(access)
    prepared = prepare(access, extent, env, found)
    if prepared is None:
        return found
    found.exact = not prepared.skipped
    found.why = prepared.skipped[0] if prepared.skipped else None
    if prepared.never:
        found.inside, found.outside, found.past = (), 0, 0
        return found
    space, coordinates = prepared.space, prepared.coordinates
    axes = extent.axes
    assert axes is not None
    widths = [1] * len(coordinates)
    if extent.kind != "image":
        widths[-1] = access.width
    sets = [space.coordinate_set(c, w) for c, w in zip(coordinates, widths, strict=True)]
    if any(s is None for s in sets) or not _separate(space, coordinates):
        found.exact, found.why = False, "the coordinates share invocation IDs in a way " \
                                        "the analysis does not split"
        return found
    _measure(found, extent, [s for s in sets if s is not None], axes)
    if found.past:
        found.detail = _who(space, coordinates, axes, env.analysis, widths)
    return found


def _separate(space: Space, coordinates: list[Poly]) -> bool:
    used: set[int] = set()
    for form in coordinates:
        mine = set(space.in_factors(form) or {})
        if mine & used:
            return False
        used |= mine
    return True


def _measure(found: Written, extent: Extent, sets: list[iv.Intervals],
             axes: tuple[int, ...]) -> None:
    if extent.kind == "buffer":
        # Coverage counts the result's data, and so does "past the result": bytes after
        # the data never reach the result, even inside the allocation (larger than the
        # data for a multi-component format on a scalar tensor; a run's write check
        # reports them, VKS963). Outside the allocation is other memory.
        data, allocation = axes[0], extent.allocation_bytes
        inside_bytes = iv.clip(sets[0], 0, data)
        outside = iv.size(sets[0]) - iv.size(iv.clip(sets[0], 0, allocation))
        size = extent.element_bytes
        found.inside = iv.normal((-(-a // size), b // size) for a, b in inside_bytes)
        found.outside = -(-outside // size)
        found.past = -(-(iv.size(sets[0]) - iv.size(inside_bytes)) // size)
        found.beyond = iv.normal((a // size, -(-b // size)) for a, b in (
            *iv.clip(sets[0], None, 0), *iv.clip(sets[0], data, None)))
        return
    clipped = [iv.clip(s, 0, axis) for s, axis in zip(sets, axes, strict=True)]
    found.outside = found.past = math.prod(iv.size(s) for s in sets) - math.prod(
        iv.size(s) for s in clipped)
    if extent.kind == "image":  # texel (x, y[, z]) is unit (z * height + y) * width + x
        linear: iv.Intervals | None = clipped[0]
        stride = 1
        for axis in range(1, len(axes)):
            stride *= axes[axis - 1]
            linear = iv.sum_set(linear, stride, clipped[axis]) if linear is not None else None
        found.inside = linear
        return
    linear = clipped[-1]
    stride = 1
    for dimension in range(len(axes) - 2, -1, -1):
        stride *= axes[dimension + 1]
        summed = iv.sum_set(linear, stride, clipped[dimension])
        if summed is None:
            found.inside = None
            return
        linear = summed
    found.inside = linear


def _who(space: Space, coordinates: list[Poly], axes: tuple[int, ...],
         analysis: ShaderAccess, widths: list[int]) -> str:
    """Which invocations reach past the result, for the simplest case: the address's
    largest term is a global, workgroup or local ID (the other terms at their
    smallest)."""
    for form, axis, width in zip(coordinates, axes, widths, strict=True):
        terms = _terms(space, form, analysis.local_size)
        if not terms:
            continue
        coefficient, name, values = max(terms, key=lambda t: t[0])
        if coefficient <= 0 or not values:
            continue
        others = form.constant + sum(c * v[0][0] for c, _n, v in terms
                                     if (c, _n) != (coefficient, name) and v)
        first = max(values[0][0], -(-(axis - max(width, 1) + 1 - others) // coefficient))
        top = values[-1][1] - 1
        if first <= top:
            return f"{name} from {first} to {top}"
    return ""


def _terms(space: Space, form: Poly, local: tuple[int, int, int]
           ) -> list[tuple[int, str, iv.Intervals]]:
    """(coefficient, name, values) of the address's factors, a workgroup ID and a local
    ID that make up a global ID counted as that."""
    use = space.in_factors(form) or {}
    terms: list[tuple[int, str, iv.Intervals]] = []
    singles = {next(iter(space.factors[k][0])): k for k in use
               if len(space.factors[k][0]) == 1}
    paired: set[int] = set()
    for k, axis in enumerate(AXES):
        wg, lid = singles.get(f"wg.{axis}"), singles.get(f"lid.{axis}")
        if wg is not None and lid is not None and use[wg] == use[lid] * local[k] \
                and space.factors[wg][1] and space.factors[lid][1] == ((0, local[k]),):
            count = space.factors[wg][1][-1][1] * local[k]
            terms.append((use[lid], f"gl_GlobalInvocationID.{axis}", ((0, count),)))
            paired |= {wg, lid}
    for k in use:
        if k not in paired:
            members, values = space.factors[k]
            terms.append((use[k], _factor_name(members, analysis_local=local), values))
    return terms


def _factor_name(members: dict[str, int], analysis_local: tuple[int, int, int]) -> str:
    local = analysis_local
    for k, axis in enumerate(AXES):
        if members == {f"wg.{axis}": local[k], f"lid.{axis}": 1} or (
                local[k] == 1 and members == {f"wg.{axis}": 1}):
            return f"gl_GlobalInvocationID.{axis}"
    parts = []
    for name, c in sorted(members.items()):
        head, _, rest = name.partition(".")
        readable = f"{_READABLE[head]}.{rest}" if head in _READABLE else "a loop counter" \
            if head == "t" else name
        parts.append(readable if c == 1 else f"{c} * {readable}")
    return " + ".join(parts)


_READABLE = {"wg": "gl_WorkGroupID", "lid": "gl_LocalInvocationID", "nwg": "gl_NumWorkGroups"}


def _names(analysis: ShaderAccess, symbols: Sequence[str]) -> str:
    named = []
    for symbol in symbols:
        head, _, rest = symbol.partition(".")
        if head in _READABLE:
            named.append(f"{_READABLE[head]}.{rest}")
        elif head == "t":
            named.append("a loop counter")
        else:
            named.append(analysis.name_of(symbol))
    return ", ".join(f"`{n}`" if head not in _READABLE else n for n in named)


# -- a result ---------------------------------------------------------------------------

# A model repeats ops: the same module, shapes and dispatch are judged once per process.
_MEMO: dict[tuple, tuple[ShaderAccess, object]] = {}
_MEMO_SIZE = 512


def memoized(kind: str, analysis: ShaderAccess, key: tuple, compute):
    """``compute()`` once per (kind, analysis, key); the entry keeps the analysis alive,
    so its ``id`` cannot be reused by another one while the entry is there."""
    full = (kind, id(analysis), key)
    found = _MEMO.get(full)
    if found is not None and found[0] is analysis:
        return found[1]
    value = compute()
    if len(_MEMO) >= _MEMO_SIZE:
        _MEMO.clear()
    _MEMO[full] = (analysis, value)
    return value


def judge(analysis: ShaderAccess, groups: Sequence[int], results: Sequence[Extent],
          bound: Sequence[Extent] = (), assumed: tuple[tuple[str, int], ...] = ()
          ) -> list[Verdict]:
    """What dispatching ``groups`` workgroups writes into each result; ``bound`` are the
    other resources (their sizes answer ``.length()`` and ``imageSize()``); ``assumed``
    gives runtime symbols (push constants) values."""
    def compute() -> list[Verdict]:
        env = Dispatch(analysis, tuple(groups), [*results, *bound],  # type: ignore[arg-type]
                       assumed)
        return [_judge_one(analysis, extent, env) for extent in results]

    return list(memoized("judge", analysis,
                         (tuple(groups), tuple(results), tuple(bound), assumed), compute))


def _judge_one(analysis: ShaderAccess, extent: Extent, env: Dispatch) -> Verdict:
    writes = tuple(analysis.writes_to(extent.set, extent.binding))
    if analysis.unknown is not None:
        return Verdict(extent, writes, unknown=analysis.unknown)
    if not writes:
        return Verdict(extent, writes, missing=extent.units, first_missing=extent.coordinate(0))
    done = [_written(access, extent, env) for access in writes]
    total = extent.units
    unknown = next((w for w in done if w.inside is None), None)
    union = iv.normal(p for w in done if w.inside is not None for p in w.inside)
    exact = iv.normal(p for w in done if w.inside is not None and w.exact for p in w.inside)
    complete = iv.first_gap(exact, 0, total) is None
    missing = first = None
    if unknown is None:
        gap = iv.first_gap(union, 0, total)
        if gap is not None:
            missing = total - iv.size(iv.clip(union, 0, total))
            first = extent.coordinate(gap)
    over = [w for w in done if w.past and w.exact]
    overruns = tuple(Overrun(w.access, w.past, w.detail, w.outside > 0) for w in over)
    past = iv.size(iv.normal(p for w in over for p in w.beyond)) \
        if extent.kind == "buffer" else max((w.past for w in over), default=0)
    risky = tuple(Overrun(w.access, w.past, w.why or "", w.outside > 0) for w in done
                  if (w.past and not w.exact) or (w.inside is None and w.runtime))
    why = None
    most = None
    if not complete and missing is None:
        reason = unknown or next((w for w in done if not w.exact), None)
        why = reason.why if reason is not None else None
        most = _most(env, writes, extent)
        if most is not None and most < total:
            missing = total - most  # (at least: which ones is not known)
    return Verdict(extent, writes, complete, missing, first, overruns, risky, why, past, most)


@dataclass(frozen=True, slots=True, eq=False)  # (compared by identity)
class Unbounded:
    """An access that is not proven to stay inside its resource under one dispatch:
    ``proven`` when its guards are all understood and it reaches ``units`` elements
    (texels) outside; otherwise the analysis cannot decide, and ``detail`` says why."""

    access: Access
    extent: Extent | None  # None: the resource is not one the op sizes
    proven: bool
    units: int
    detail: str


def unbounded(analysis: ShaderAccess, groups: Sequence[int], extents: Sequence[Extent]
              ) -> list[Unbounded] | None:
    """Every read and write of a buffer, image or tensor that dispatching ``groups``
    workgroups does not provably keep inside the resource's allocation (``extents``: the
    op's operands and results as the runtime lays them out). Where this is empty, no
    access of the shader reaches outside memory it was given; what is in it is for the
    device to show (``tosa-vkshader run``). None when the module was not analysed
    (``analysis.unknown`` says why)."""
    if analysis.unknown is not None:
        return None

    def compute() -> list[Unbounded]:
        env = Dispatch(analysis, tuple(groups), extents)  # type: ignore[arg-type]
        sized = {(e.set, e.binding): e for e in extents}
        found = []
        for access in analysis.accesses:
            if access.resource == "shared":
                continue
            extent = sized.get((access.set, access.binding))
            if extent is None:
                found.append(Unbounded(access, None, False, 0,
                                       "the op's types do not give the resource's size"))
                continue
            written = _written(access, extent, env)
            if written.inside is None or access.width <= 0:
                found.append(Unbounded(access, extent, False, 0,
                                       written.why or "its address is not known"))
            elif written.outside:
                found.append(Unbounded(access, extent, written.exact, written.outside,
                                       written.detail if written.exact
                                       else written.why or ""))
        return found

    return list(memoized("unbounded", analysis, (tuple(groups), tuple(extents)), compute))


def _most(env: Dispatch, writes: tuple[Access, ...], extent: Extent) -> int | None:
    """The most units of ``extent`` the writes can fill, whatever their addresses: each
    store runs at most once per invocation and per iteration of the loops around it. None
    when a loop's iterations or a store's size are not known."""
    local = env.analysis.local_size
    launched = math.prod(env.groups) * math.prod(local)
    total = 0
    for access in writes:
        if access.width <= 0:
            return None
        iterations = 1
        for counter in access.loops:
            bound = env._iterations(counter)
            if bound is None:
                return None
            iterations *= bound
        total += launched * iterations * (1 if extent.kind == "image" else access.width)
    return total // extent.element_bytes if extent.kind == "buffer" else total
