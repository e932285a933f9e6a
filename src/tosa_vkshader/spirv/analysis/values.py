"""What the evaluator knows about one SSA value.

Integers are :class:`~.forms.Poly`; vectors and arrays are :class:`Vec`; pointers carry
their variable and their byte offset (for explicitly laid out blocks) or their index path;
booleans are small formulas over comparisons (``form < 0``...), so that a guard such as
``if (any(greaterThanEqual(p, imageSize(img)))) return;`` can be read as the conditions
``p.x - isz.x < 0`` and ``p.y - isz.y < 0`` on everything after it. Anything else is
:data:`UNKNOWN`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .forms import Poly


@dataclass(frozen=True, slots=True)
class Unknown:
    """A value the analysis does not follow (data, floats, non-affine arithmetic)."""


UNKNOWN = Unknown()


@dataclass(frozen=True, slots=True)
class Vec:
    items: tuple[Value, ...]
    depth: int = 1  # how deeply vectors and formulas nest in it


@dataclass(frozen=True, slots=True)
class Pointer:
    root: int  # the OpVariable
    storage: int  # its storage class
    offset: Poly | None  # bytes from the variable's start (explicit layout); None unknown
    path: tuple[Poly | None, ...]  # the indices of the access chains, outermost first
    type_id: int  # the pointee type


@dataclass(frozen=True, slots=True)
class Handle:
    """A loaded descriptor (image, tensor, sampler) of the variable ``root``."""

    root: int


# -- booleans -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Cmp:
    """``form op 0``."""

    form: Poly
    op: str

    def negated(self) -> Cmp:
        if self.op == "<":  # not (f < 0)  <=>  -f <= 0
            return Cmp(-self.form, "<=")
        if self.op == "<=":  # not (f <= 0)  <=>  -f < 0
            return Cmp(-self.form, "<")
        return Cmp(self.form, "!=" if self.op == "==" else "==")


@dataclass(frozen=True, slots=True)
class Logic:
    op: str  # "and" or "or"
    items: tuple[Value, ...]
    depth: int = 1


@dataclass(frozen=True, slots=True)
class Not:
    item: Value
    depth: int = 1


@dataclass(frozen=True, slots=True)
class Truth:
    value: bool


TRUE, FALSE = Truth(True), Truth(False)
# Nesting past this is not followed: the formulas are walked recursively, and a module
# can chain thousands of logical operations.
MAX_NESTING = 24


def depth(value: Value) -> int:
    return getattr(value, "depth", 0) if isinstance(value, (Vec, Logic, Not)) else 0


def vector(items: tuple[Value, ...]) -> Value:
    """A vector (or array) of ``items``; unknown when nested too deeply."""
    nesting = 1 + max((depth(i) for i in items), default=0)
    return Vec(items, nesting) if nesting <= MAX_NESTING else UNKNOWN

Value = Poly | Vec | Pointer | Handle | Cmp | Logic | Not | Truth | Unknown
BOOLEAN = (Cmp, Logic, Not, Truth)


def compare(a: Value, b: Value, op: str) -> Value:
    """``a op b`` for op in <, <=, >, >=, ==, != (componentwise on vectors)."""
    if isinstance(a, Vec) and isinstance(b, Vec) and len(a.items) == len(b.items):
        return vector(tuple(compare(x, y, op) for x, y in zip(a.items, b.items, strict=True)))
    if not isinstance(a, Poly) or not isinstance(b, Poly):
        return UNKNOWN
    if op in (">", ">="):
        a, b, op = b, a, "<" if op == ">" else "<="
    difference = a - b
    if difference.is_const:
        value = difference.constant
        return Truth({"<": value < 0, "<=": value <= 0, "==": value == 0,
                      "!=": value != 0}[op])
    return Cmp(difference, op)


def logic(op: str, items: tuple[Value, ...]) -> Value:
    """``and``/``or`` of booleans, with constants folded and nested ones flattened."""
    absorbing, neutral = (FALSE, TRUE) if op == "and" else (TRUE, FALSE)
    flat: list[Value] = []
    for item in items:
        if item == absorbing:
            return absorbing
        if item == neutral:
            continue
        if isinstance(item, Logic) and item.op == op:
            flat.extend(i for i in item.items if i not in flat)
        elif item not in flat:
            flat.append(item)
    # x or (not x and y) = x or y; x and (not x or y) = x and y: what short-circuit
    # control flow builds (`a || b` arrives as a, or not a and b).
    literals = [i for i in flat if not isinstance(i, Logic)]
    for k, item in enumerate(flat):
        if isinstance(item, Logic) and item.op != op:
            kept = tuple(i for i in item.items if negate(i) not in literals)
            if kept != item.items:
                flat[k] = logic(item.op, kept) if kept else absorbing
    if absorbing in flat:
        return absorbing
    flat = [i for i in flat if i != neutral]
    if not flat:
        return neutral
    if len(flat) == 1:
        return flat[0]
    nesting = 1 + max(depth(i) for i in flat)
    return Logic(op, tuple(flat), nesting) if nesting <= MAX_NESTING else UNKNOWN


def negate(item: Value) -> Value:
    if isinstance(item, Truth):
        return Truth(not item.value)
    if isinstance(item, Cmp):
        return item.negated()
    if isinstance(item, Not):
        return item.item
    if isinstance(item, Logic):
        return logic("or" if item.op == "and" else "and", tuple(negate(i) for i in item.items))
    if isinstance(item, Vec):
        return vector(tuple(negate(i) for i in item.items))
    if not isinstance(item, BOOLEAN) or depth(item) >= MAX_NESTING:
        return UNKNOWN
    return Not(item, depth(item) + 1)


def conjuncts(formula: Value) -> tuple[list[Cmp], bool]:
    """The comparisons that all hold when ``formula`` holds, and whether something more
    (a disjunction, data) also decides it."""
    if isinstance(formula, Truth):
        return [], False  # (FALSE: the caller's block is never reached that way)
    if isinstance(formula, Cmp):
        return [formula], False
    if isinstance(formula, Logic) and formula.op == "and":
        found: list[Cmp] = []
        opaque = False
        for item in formula.items:
            more, unclear = conjuncts(item)
            found.extend(more)
            opaque |= unclear
        return found, opaque
    return [], True


def substitute(value: Value, mapping: dict[str, Poly | None]) -> Value:
    """``value`` with the symbols of ``mapping`` replaced (None: unknown)."""
    if isinstance(value, Poly):
        replaced = value.substitute(mapping)
        return UNKNOWN if replaced is None else replaced
    if isinstance(value, Cmp):
        replaced = value.form.substitute(mapping)
        if replaced is None:
            return UNKNOWN
        if replaced.is_const:
            return compare(replaced, Poly(), value.op)
        return Cmp(replaced, value.op)
    if isinstance(value, Logic):
        return logic(value.op, tuple(substitute(i, mapping) for i in value.items))
    if isinstance(value, Not):
        return negate(substitute(value.item, mapping))
    if isinstance(value, Vec):
        return vector(tuple(substitute(i, mapping) for i in value.items))
    if isinstance(value, Pointer):
        offset = value.offset.substitute(mapping) if value.offset is not None else None
        path = tuple(s.substitute(mapping) if s is not None else None for s in value.path)
        return Pointer(value.root, value.storage, offset, path, value.type_id)
    return value
