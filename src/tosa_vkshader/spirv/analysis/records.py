"""What the index analysis says about a module: plain records, JSON both ways (the shader
stage keeps them in its disk cache)."""

from __future__ import annotations

from dataclasses import dataclass

from .forms import Poly


@dataclass(frozen=True, slots=True)
class Condition:
    """``form op 0``, op in ``<``, ``<=``, ``==``, ``!=``."""

    form: Poly
    op: str

    def holds(self, value: int) -> bool:
        return {"<": value < 0, "<=": value <= 0, "==": value == 0, "!=": value != 0}[self.op]


@dataclass(frozen=True, slots=True, eq=False)  # (compared by identity)
class Place:
    """Where an access is: the source line (from the module's ``OpLine``; ``file`` is
    the name the compiler recorded) and the instruction in words."""

    instruction: str
    line: int | None = None
    column: int | None = None
    file: str | None = None
    main_file: bool = False  # the line is in the compiled source itself (not an include)

    def describe(self) -> str:
        if self.line is None:
            return self.instruction
        where = f"line {self.line}" if self.main_file or not self.file \
            else f"{self.file}:{self.line}"
        return f"{self.instruction} ({where})"


@dataclass(frozen=True, slots=True, eq=False)  # (compared by identity)
class Access:
    """One instruction that reads or writes a resource.

    ``coordinates``: for a buffer the byte address from the start of the variable; for an
    image its texel coordinates (x, y[, z]); for a tensor one per dimension; for
    workgroup-shared memory the element's byte offset. None when the address is not an
    expression of the invocation (data-dependent, or arithmetic the analysis does not
    follow; ``unknown`` says which). ``width`` is what one execution covers from there:
    bytes for buffers and shared memory, elements along the last dimension for tensors,
    texels (1) for images; 0 when not known (a cooperative matrix of unknown layout). The
    access happens only where every guard holds, and, when ``opaque_guard``, where some
    further condition the analysis could not read holds too; once per invocation and per
    iteration of each loop around it (``loops``).
    """

    kind: str  # "write", "read" or "atomic" (both)
    resource: str  # "buffer", "image", "tensor", "shared"
    set: int  # the descriptor (shared memory: -1 and the variable's id)
    binding: int
    name: str
    coordinates: tuple[Poly, ...] | None
    width: int
    guards: tuple[Condition, ...]
    opaque_guard: bool
    place: Place
    unknown: str | None = None
    block: int = 0  # the basic block (for the barrier analysis)
    position: int = 0  # the instruction's index inside it
    loops: tuple[str, ...] = ()  # the counters (t.<header>) of the loops around it

    @property
    def writes(self) -> bool:
        return self.kind in ("write", "atomic")


@dataclass(frozen=True, slots=True, eq=False)  # (compared by identity)
class Race:
    """A workgroup-shared variable written by one invocation and read by another with no
    barrier between them on some path."""

    variable: str
    store: Place
    load: Place
    example: str  # "invocation 1 writes element 1, which invocation 0 reads"


@dataclass(frozen=True, slots=True, eq=False)  # (compared by identity)
class ShaderAccess:
    """Every resource access of an entry point, in the terms of its invocations."""

    local_size: tuple[int, int, int]
    accesses: tuple[Access, ...] = ()
    # Symbols with listed values (a loop variable halved each iteration, a matrix row).
    value_sets: tuple[tuple[str, tuple[int, ...]], ...] = ()
    races: tuple[Race, ...] = ()
    names: tuple[tuple[str, str], ...] = ()  # symbol -> how the shader names it
    # loop counter (t.<header>) -> the conditions under which the loop goes on
    loops: tuple[tuple[str, tuple[Condition, ...]], ...] = ()
    unknown: str | None = None  # why nothing at all is known (no optimizer, ...)

    def writes_to(self, set_: int, binding: int) -> list[Access]:
        return [a for a in self.accesses
                if a.writes and (a.set, a.binding) == (set_, binding)]

    def name_of(self, symbol: str) -> str:
        return dict(self.names).get(symbol, symbol)

    # -- JSON ----------------------------------------------------------------------

    def to_json(self) -> dict:
        return {
            "local_size": list(self.local_size),
            "accesses": [_access_json(a) for a in self.accesses],
            "value_sets": [[s, list(v)] for s, v in self.value_sets],
            "races": [[r.variable, _place_json(r.store), _place_json(r.load), r.example]
                      for r in self.races],
            "names": [list(n) for n in self.names],
            "loops": [[s, [[c.form.to_json(), c.op] for c in cs]] for s, cs in self.loops],
            "unknown": self.unknown,
        }

    @staticmethod
    def from_json(data: dict) -> ShaderAccess:
        return ShaderAccess(
            (data["local_size"][0], data["local_size"][1], data["local_size"][2]),
            tuple(_access_from(a) for a in data["accesses"]),
            tuple((s, tuple(v)) for s, v in data["value_sets"]),
            tuple(Race(v, _place_from(s), _place_from(ld), e)
                  for v, s, ld, e in data["races"]),
            tuple((a, b) for a, b in data["names"]),
            tuple((s, tuple(Condition(Poly.from_json(f), op) for f, op in cs))
                  for s, cs in data["loops"]),
            data["unknown"])


def _place_json(place: Place) -> list:
    return [place.instruction, place.line, place.column, place.file, place.main_file]


def _place_from(data: list) -> Place:
    return Place(*data)


def _access_json(a: Access) -> dict:
    return {"kind": a.kind, "resource": a.resource, "set": a.set, "binding": a.binding,
            "name": a.name,
            "coordinates": None if a.coordinates is None
            else [c.to_json() for c in a.coordinates],
            "width": a.width, "guards": [[g.form.to_json(), g.op] for g in a.guards],
            "opaque_guard": a.opaque_guard, "place": _place_json(a.place),
            "unknown": a.unknown, "block": a.block, "position": a.position,
            "loops": list(a.loops)}


def _access_from(d: dict) -> Access:
    coordinates = None if d["coordinates"] is None else tuple(
        Poly.from_json(c) for c in d["coordinates"])
    return Access(d["kind"], d["resource"], d["set"], d["binding"], d["name"], coordinates,
                  d["width"], tuple(Condition(Poly.from_json(f), op) for f, op in d["guards"]),
                  d["opaque_guard"], _place_from(d["place"]), d["unknown"], d["block"],
                  d["position"], tuple(d["loops"]))
