"""What a model says about a custom op beyond its attributes: names and tensor types.

Every source that knows the op's operands and results (MLIR, .tosa, op-level JSON with
types) fills an :class:`OpContext`; the context rules (VKS5xx) compare it with the
attributes. Tensor types are kept in MLIR's spelling (``tensor<1x8xf32>``, element
``i8``/``ui8``/``bf16``...) whichever source they come from, so the same op gives the same
messages from MLIR, .tosa and JSON.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .diagnostics import Location

VULKAN_DOMAIN = "com.arm.VulkanCustomShader"


@dataclass(frozen=True, slots=True)
class TensorType:
    """One operand or result type. ``shape`` is None when unranked (or not a tensor);
    a dimension is None when it is dynamic (``?``)."""

    text: str
    element: str | None = None
    shape: tuple[int | None, ...] | None = None
    is_tensor: bool = True

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    @property
    def static_shape(self) -> tuple[int, ...] | None:
        if self.shape is None or any(d is None for d in self.shape):
            return None
        return tuple(d for d in self.shape if d is not None)

    @classmethod
    def tensor(cls, element: str, shape: tuple[int | None, ...] | None) -> TensorType:
        return cls(render_tensor(element, shape), element, shape)


def render_tensor(element: str, shape: tuple[int | None, ...] | None) -> str:
    if shape is None:
        return f"tensor<*x{element}>"
    dims = "".join(f"{'?' if d is None else d}x" for d in shape)
    return f"tensor<{dims}{element}>"


# MLIR dimensions are int64; a longer run of digits is not a shape (and `int` refuses
# more than 4300 digits).
MAX_DIM_DIGITS = 19
_TENSOR_RE = re.compile(r"tensor<\s*(.*)>\s*\Z", re.DOTALL)
_DIMS_RE = re.compile(r"((?:(?:\d+|\?)x)*)(.*)\Z", re.DOTALL)
_QUANT_STORAGE_RE = re.compile(r"!quant\.\w+<\s*([a-z]+\d+)")


def parse_type(text: str) -> TensorType:
    """A type as written in MLIR. Anything that is not a ``tensor<...>`` is kept as text."""
    text = " ".join(text.split())
    match = _TENSOR_RE.match(text)
    if match is None:
        return TensorType(text, is_tensor=False)
    body = _strip_encoding(match.group(1)).strip()
    if body.startswith("*x"):
        element = _element(body[2:])
        return TensorType.tensor(element, None) if element else TensorType(text, None, None)
    dims_match = _DIMS_RE.match(body)
    assert dims_match is not None  # the pattern accepts any text
    dims_text, rest = dims_match.groups()
    element = _element(rest)
    if not element:
        return TensorType(text, None, None)
    dims = dims_text.split("x")[:-1]
    if any(len(d) > MAX_DIM_DIGITS for d in dims):
        return TensorType(text, None, None)  # not an int64 dimension: never converted
    shape = tuple(None if d == "?" else int(d) for d in dims)
    if element.startswith("!"):  # e.g. a quantized element type: keep it as written
        return TensorType(text, element, shape)
    return TensorType.tensor(element, shape)


def _strip_encoding(body: str) -> str:
    """``1x8xf32, #enc`` -> ``1x8xf32`` (the comma at nesting depth 0)."""
    depth = 0
    for index, char in enumerate(body):
        if char in "<([{":
            depth += 1
        elif char in ">)]}":
            depth -= 1
        elif char == "," and depth == 0:
            return body[:index]
    return body


def _element(text: str) -> str:
    return text.strip()


def storage_element(element: str | None) -> str | None:
    """The element type that is stored: ``!quant.uniform<i8:f32, 0.1>`` stores ``i8``."""
    if element is None or not element.startswith("!"):
        return element
    match = _QUANT_STORAGE_RE.match(element)
    return match.group(1) if match else None


@dataclass(slots=True)
class OpContext:
    """The op around the attributes. ``operands``/``results`` are None when the source
    does not know them (a bare attribute object, an op object without types)."""

    operator_name: str | None = None
    domain_name: str | None = None
    operands: tuple[TensorType, ...] | None = None
    results: tuple[TensorType, ...] | None = None
    # How the op is wired in its function (MLIR): the SSA value passed as each operand,
    # and whether anything consumes each result. None when the source does not say.
    operand_values: tuple[str, ...] | None = None
    results_used: tuple[bool, ...] | None = None
    # The op's result indices in the order the enclosing function returns them (only
    # results returned directly), when the source shows it (MLIR).
    returned: tuple[int, ...] | None = None
    # Where op-level things are ("operator_name", "domain_name", "op"), for diagnostics
    # about them: they are not inside the attribute object, so no pointer reaches them.
    places: dict[str, Location | None] = field(default_factory=dict)
    # The same as offsets into the file, turned into places only when a diagnostic needs
    # one (line/column cost a pass over a large model's text): ``locate(start, end)``.
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    locate: Callable[[int, int], Location] | None = None
    # Or a function per place that finds it (a JSON pointer looked up in its document).
    finders: dict[str, Callable[[], Location | None]] = field(default_factory=dict)

    def place(self, what: str) -> Location | None:
        return self._place(what) or self._place("op")

    def _place(self, what: str) -> Location | None:
        if what not in self.places:
            if what in self.spans and self.locate is not None:
                self.places[what] = self.locate(*self.spans[what])
            elif what in self.finders:
                found = self.finders[what]()
                if found is not None:
                    self.places[what] = found
        return self.places.get(what)


def domain_kind(domain: str | None) -> str:
    """"ours" for the Vulkan shader domain, "near-miss" for a likely misspelling of it
    (wrong case, a letter off, a plural), "other" for any other domain."""
    if domain == VULKAN_DOMAIN:
        return "ours"
    if domain is None:
        return "other"
    import difflib

    folded = domain.strip().lower()
    wanted = VULKAN_DOMAIN.lower()
    if folded == wanted or difflib.SequenceMatcher(None, folded, wanted).ratio() >= 0.9:
        return "near-miss"
    return "other"
