"""Dynamic dimensions: which sizes to try, and the model made static for each.

The runtime runs static shapes only, so a model whose entry function has dynamic
dimensions (``tensor<?xf32>``) is verified at a few sizes, each a copy of the model with
every ``?`` replaced. A ``?`` belongs to the *size variable* of its axis counted from
the end (the last axis of every operand and result that is dynamic there shares one
size; ``tensor<?x16xf32>`` and ``tensor<?xf32>`` do not), which fits elementwise ops,
reductions to a static result and matrix products alike.

The sizes are where shaders go wrong: around a multiple of the workgroup's local size
along the axis the variable is dispatched on (the last dynamic axis on x, the one
before on y, then z): one workgroup exactly, one element less (a partial workgroup),
one more (a second workgroup with a single invocation in range), two workgroups and one
element, and a single element; never more than the dispatch covers (``workgroup_sizes``
workgroups of the local size), which would only leave elements unwritten. Each size is
a conversion and a runner process of its own, so there are few. Size 1 comes first:
shrinking moves towards the smallest size that still fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..op_context import TensorType
    from ..runtime.model import Argument, Signature
    from ..runtime.shaders import ShaderOp

# at most this many combinations of sizes when several variables are free: each is a
# conversion and a runner process of its own
MAX_COMBINATIONS = 12
_TENSOR = re.compile(r"tensor<([^<>]*)>")


@dataclass(frozen=True, slots=True)
class Sizes:
    """The size variables of a model (their axes counted from the end, 0 the last) and
    the combinations of sizes to try, simplest first. No variables: a static model."""

    axes: tuple[int, ...] = ()
    combinations: tuple[tuple[int, ...], ...] = ()

    @property
    def free(self) -> bool:
        return bool(self.axes)

    def shape(self, type_: TensorType, sizes: Sequence[int]) -> tuple[int, ...]:
        """The static shape of ``type_`` with each dynamic dimension given its size."""
        by_axis = dict(zip(self.axes, sizes, strict=True))
        dims = type_.shape or ()
        return tuple(by_axis[len(dims) - 1 - k] if d is None else d
                     for k, d in enumerate(dims))

    def of(self, shapes: Sequence[tuple[int, ...]],
           arguments: Sequence[Argument]) -> tuple[int, ...] | str:
        """The sizes that the arrays' ``shapes`` give the variables, or why they cannot
        (a static dimension differs, two arrays disagree on a variable's size)."""
        found: dict[int, int] = {}
        for index, (shape, argument) in enumerate(zip(shapes, arguments, strict=True)):
            dims = argument.type.shape or ()
            if len(shape) != len(dims):
                return f"argument {index} ({argument.name}) is `{argument.type.text}`, " \
                       f"an array of shape {list(shape)} was drawn"
            for k, (size, dim) in enumerate(zip(shape, dims, strict=True)):
                axis = len(dims) - 1 - k
                if dim is None:
                    if found.setdefault(axis, size) != size:
                        return f"argument {index} ({argument.name}) has size {size} on " \
                               f"axis {k}, another argument {found[axis]}"
                elif size != dim:
                    return f"argument {index} ({argument.name}) is " \
                           f"`{argument.type.text}`, an array of shape {list(shape)} " \
                           "was drawn"
        return tuple(found.get(axis, 1) for axis in self.axes)

    def specialise(self, text: str, sizes: Sequence[int]) -> str:
        """The model's text with every ``?`` dimension replaced by its variable's size."""
        by_axis = dict(zip(self.axes, sizes, strict=True))

        def static(match: re.Match[str]) -> str:
            parts = match.group(1).split("x")
            dims = parts[:-1]
            if "?" not in dims:
                return match.group(0)
            filled = [str(by_axis.get(len(dims) - 1 - k, 1)) if d.strip() == "?" else d
                      for k, d in enumerate(dims)]
            return f"tensor<{'x'.join([*filled, parts[-1]])}>"

        return _TENSOR.sub(static, text)


def model_sizes(signature: Signature, local_size: tuple[int, int, int] | None,
                dispatch: tuple[int, int, int] | None) -> Sizes:
    """The size variables of ``signature`` and the sizes to try for them, from the op's
    local size and dispatch (either None when unknown: then around 64)."""
    axes: set[int] = set()
    for value in (*signature.arguments, *signature.results):
        dims = value.type.shape or ()
        axes.update(len(dims) - 1 - k for k, d in enumerate(dims) if d is None)
    if not axes:
        return Sizes()
    ordered = tuple(sorted(axes))
    per_variable = [_sizes_along(min(position, 2), local_size, dispatch)
                    for position in range(len(ordered))]
    return Sizes(ordered, _combinations(per_variable))


def _sizes_along(axis: int, local_size: tuple[int, int, int] | None,
                 dispatch: tuple[int, int, int] | None) -> tuple[int, ...]:
    local = local_size[axis] if local_size else 64
    if local <= 1 and local_size:  # not dispatched on this axis: count along x
        local, axis = local_size[0], 0
    local = max(local, 2)
    limit = dispatch[axis] * local if dispatch else 2 * local + 1
    wanted = {1, local - 1, local, local + 1, 2 * local + 1}
    return tuple(sorted(size for size in wanted if 1 <= size <= limit)) or (1,)


def _combinations(per_variable: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """One size per variable: each variable's sizes in step (the k-th of each), then
    mixtures of a smaller and a larger size; at most :data:`MAX_COMBINATIONS`, in order
    of the elements they make."""
    longest = max(len(sizes) for sizes in per_variable)
    found = {tuple(sizes[min(k, len(sizes) - 1)] for sizes in per_variable)
             for k in range(longest)}
    if len(per_variable) > 1:
        for k in range(1, longest):
            found.add(tuple(sizes[min(k if n % 2 else k - 1, len(sizes) - 1)]
                            for n, sizes in enumerate(per_variable)))
            found.add(tuple(sizes[min(k - 1 if n % 2 else k, len(sizes) - 1)]
                            for n, sizes in enumerate(per_variable)))
    ordered = sorted(found, key=lambda sizes: (_product(sizes), sizes))
    return tuple(ordered[:MAX_COMBINATIONS])


def _product(sizes: tuple[int, ...]) -> int:
    total = 1
    for size in sizes:
        total *= size
    return total


def op_dispatch(ops: Sequence[ShaderOp]) -> tuple[tuple[int, int, int] | None,
                                                  tuple[int, int, int] | None]:
    """The first op's local size (from its shader) and dispatch (``workgroup_sizes``),
    each None when unknown."""
    for op in ops:
        reflection = op.shader.reflection if op.shader is not None else None
        local = reflection.local_size if reflection is not None else None
        if local is None:
            continue
        x, y, z = (v or 1 for v in local.values)
        dispatch = (op.op.attrs or {}).get("workgroup_sizes")
        if isinstance(dispatch, list) and len(dispatch) == 3 and \
                all(isinstance(v, int) and v > 0 for v in dispatch):
            return (x, y, z), (dispatch[0], dispatch[1], dispatch[2])
        return (x, y, z), None
    return None, None
