"""The inputs of a run against the arguments of the model's entry function: one per
argument, each with the argument's element type and shape."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..op_context import render_tensor
from .errors import RunError
from .model import NUMPY_DTYPES, Signature
from .npyfile import Npy, little_endian_twin
from .rules import INPUT_MISMATCH

# numpy's name of an element type -> the MLIR element type it is shown as
_ELEMENTS = {dtype: element for element, dtype in reversed(list(NUMPY_DTYPES.items()))}


def match_inputs(signature: Signature, inputs: Sequence[Npy], case: int | None = None) -> None:
    """:class:`RunError` naming every input that does not fit its argument (and the
    ``case`` of several, when given)."""
    arguments = signature.arguments
    wanted = ", ".join(f"{a.name}: {a.type.text}" for a in arguments)
    which = "" if case is None else f"case {case}: "
    if len(inputs) != len(arguments):
        raise RunError([INPUT_MISMATCH.at(
            "", f"{which}@{signature.name} takes {len(arguments)} argument(s) ({wanted}), "
                f"{len(inputs)} input(s) given",
            hint="give one input per argument, in argument order")])
    problems = []
    for index, (array, argument) in enumerate(zip(inputs, arguments, strict=True)):
        given = render_tensor(_ELEMENTS.get(array.dtype, array.dtype), array.shape)
        if array.dtype != argument.dtype or array.shape != argument.shape:
            problems.append(INPUT_MISMATCH.at(
                "", f"{which}input {index} for argument {argument.name}: expected "
                    f"{argument.type.text} ({argument.dtype} {list(argument.shape or ())}), "
                    f"given {given} ({array.dtype} {list(array.shape)})",
                hint=_conversion(array, argument.dtype or "", argument.shape or ())))
    if problems:
        raise RunError(problems)


def _conversion(array: Npy, dtype: str, shape: tuple[int, ...]) -> str | None:
    """The numpy call that makes the input fit, when one can: the same number of elements
    (a reshape never makes a shape out of another count)."""
    if little_endian_twin(array.dtype) == dtype:  # (what np.load gives for such a file)
        return f'x.astype("<{array.dtype[1:]}") (the same values, in the little-endian ' \
               "order the device reads)"
    if math.prod(array.shape) != math.prod(shape):
        return f"give an array of {math.prod(shape)} {dtype} element(s) in the shape " \
               f"{list(shape)} (this one has {math.prod(array.shape)})"
    if array.dtype == dtype:
        return f"x.reshape({tuple(shape)})"
    return f"np.asarray(x, dtype=np.{dtype}).reshape({tuple(shape)})"
