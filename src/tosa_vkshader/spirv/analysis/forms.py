"""Integer polynomials over named symbols: the values the index analysis reasons with.

An index such as ``gl_GlobalInvocationID.y * 128 + gl_GlobalInvocationID.x`` becomes
``128*L.y*wg.y + 128*lid.y + L.x*wg.x + lid.x`` with the local size ``L`` filled in: a
sum of terms, each an integer coefficient times a product of symbols (a monomial; the
empty product is the constant term). Symbols name what a value depends on:

=================  ==========================================================
``wg.x``           ``gl_WorkGroupID.x`` (0 .. dispatched workgroups - 1)
``lid.x``          ``gl_LocalInvocationID.x`` (0 .. local size - 1)
``nwg.x``          ``gl_NumWorkGroups.x`` (the dispatch, known when judging one)
``t.<id>``         the iteration count of the loop whose header is block ``<id>``
``v.<id>``         a loop variable whose values are listed (``s >>= 1`` from 32)
``pc.<offset>``    a push-constant member (runtime data)
``u.<s>.<b>.<o>``  a word at a constant offset of a buffer the shader only reads
``len.<s>.<b>``    ``.length()`` of the runtime array of the buffer at set s, binding b
``isz.<s>.<b>.<a>`` ``imageSize()`` of an image, axis a (0 = width)
``tsz.<s>.<b>.<d>`` ``tensorSizeARM()`` of a tensor, dimension d
=================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Monomial = tuple[str, ...]  # sorted symbol names; () is the constant term
# Past these a product is not followed (a hostile module can square a sum fifty times).
MAX_TERMS = 64
MAX_DEGREE = 4

# Symbols whose value is fixed for a whole dispatch but not known to the checker.
RUNTIME_PREFIXES = ("pc.", "u.")


@dataclass(frozen=True, slots=True)
class Poly:
    """A polynomial with integer coefficients; ``terms`` sorted, no zero coefficient."""

    terms: tuple[tuple[Monomial, int], ...] = ()

    # -- construction --------------------------------------------------------------

    @staticmethod
    def of(terms: Mapping[Monomial, int] | Iterable[tuple[Monomial, int]]) -> Poly:
        items = terms.items() if isinstance(terms, Mapping) else terms
        merged: dict[Monomial, int] = {}
        for monomial, coefficient in items:
            merged[monomial] = merged.get(monomial, 0) + coefficient
        return Poly(tuple(sorted((m, c) for m, c in merged.items() if c)))

    @staticmethod
    def const(value: int) -> Poly:
        return Poly((((), value),) if value else ())

    @staticmethod
    def symbol(name: str, coefficient: int = 1) -> Poly:
        return Poly((((name,), coefficient),) if coefficient else ())

    # -- arithmetic ----------------------------------------------------------------

    def __add__(self, other: Poly) -> Poly:
        return Poly.of(self.terms + other.terms)

    def __sub__(self, other: Poly) -> Poly:
        return self + other.scale(-1)

    def __neg__(self) -> Poly:
        return self.scale(-1)

    def scale(self, factor: int) -> Poly:
        return Poly(tuple((m, c * factor) for m, c in self.terms)) if factor else Poly()

    def __mul__(self, other: Poly) -> Poly:
        return Poly.of((tuple(sorted(a + b)), ca * cb)
                       for a, ca in self.terms for b, cb in other.terms)

    def times(self, other: Poly) -> Poly | None:
        """``self * other``, or None when it would exceed :data:`MAX_TERMS` terms or
        monomials of :data:`MAX_DEGREE` symbols."""
        if len(self.terms) * len(other.terms) > MAX_TERMS:
            return None
        product = self * other
        if any(len(m) > MAX_DEGREE for m, _c in product.terms):
            return None
        return product

    def exact_div(self, divisor: int) -> Poly | None:
        """``self / divisor`` when every coefficient divides, else None."""
        if divisor == 0 or any(c % divisor for _m, c in self.terms):
            return None
        return Poly(tuple((m, c // divisor) for m, c in self.terms))

    # -- questions -----------------------------------------------------------------

    @property
    def is_const(self) -> bool:
        return all(not m for m, _c in self.terms)

    @property
    def constant(self) -> int:
        """The constant term."""
        return next((c for m, c in self.terms if not m), 0)

    @property
    def symbols(self) -> frozenset[str]:
        return frozenset(s for m, _c in self.terms for s in m)

    @property
    def is_linear(self) -> bool:
        return all(len(m) <= 1 for m, _c in self.terms)

    def coefficient(self, symbol: str) -> int:
        """The coefficient of ``symbol`` alone (its linear term)."""
        return next((c for m, c in self.terms if m == (symbol,)), 0)

    def linear(self) -> dict[str, int]:
        """symbol -> coefficient of the linear terms (the constant left out)."""
        return {m[0]: c for m, c in self.terms if len(m) == 1}

    # -- substitution --------------------------------------------------------------

    def substitute(self, values: Mapping[str, Poly | None]) -> Poly | None:
        """Each symbol in ``values`` replaced by its polynomial; None when one of them
        is None (unknown)."""
        if not any(s in values for s in self.symbols):
            return self
        total = Poly()
        for monomial, coefficient in self.terms:
            product = Poly.const(coefficient)
            for name in monomial:
                if name in values:
                    value = values[name]
                    if value is None:
                        return None
                    product = product * value
                else:
                    product = product * Poly.symbol(name)
            total = total + product
        return total

    def value(self, values: Mapping[str, int]) -> int | None:
        """The number, when every symbol has one in ``values``."""
        total = 0
        for monomial, coefficient in self.terms:
            product = coefficient
            for name in monomial:
                if name not in values:
                    return None
                product *= values[name]
            total += product
        return total

    # -- JSON ----------------------------------------------------------------------

    def to_json(self) -> list:
        return [[list(m), c] for m, c in self.terms]

    @staticmethod
    def from_json(data: list) -> Poly:
        return Poly(tuple((tuple(m), int(c)) for m, c in data))

    def __str__(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for monomial, coefficient in self.terms:
            name = "*".join(monomial)
            if not name:
                parts.append(str(coefficient))
            elif coefficient == 1:
                parts.append(name)
            elif coefficient == -1:
                parts.append(f"-{name}")
            else:
                parts.append(f"{coefficient}*{name}")
        return " + ".join(parts).replace("+ -", "- ")


def is_runtime(symbol: str) -> bool:
    return symbol.startswith(RUNTIME_PREFIXES)
