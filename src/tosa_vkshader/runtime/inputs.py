"""The inputs of a run against the arguments of the model's entry function: one per
argument, each with the argument's element type and shape."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..op_context import render_tensor
from .errors import RunError
from .model import NUMPY_DTYPES, Signature
from .npyfile import HostArray, from_array
from .rules import INPUT_MISMATCH

if TYPE_CHECKING:
    from typing import Any

# numpy's name of an element type -> the MLIR element type it is shown as
_ELEMENTS = {dtype: element for element, dtype in reversed(list(NUMPY_DTYPES.items()))}


def matched_inputs(signature: Signature, inputs: Sequence[Any]) -> list[HostArray]:
    """The inputs as bytes (arrays, or :class:`HostArray` as read from .npy files);
    :class:`RunError` naming every input that does not fit its argument."""
    arguments = signature.arguments
    wanted = ", ".join(f"{a.name}: {a.type.text}" for a in arguments)
    if len(inputs) != len(arguments):
        raise RunError([INPUT_MISMATCH.at(
            "", f"@{signature.name} takes {len(arguments)} argument(s) ({wanted}), "
                f"{len(inputs)} input(s) given",
            hint="give one input per argument, in argument order")])
    arrays, problems = [], []
    for index, (value, argument) in enumerate(zip(inputs, arguments, strict=True)):
        array = value if isinstance(value, HostArray) else from_array(value)
        given = render_tensor(_ELEMENTS.get(array.dtype, array.dtype), array.shape)
        if array.dtype != argument.dtype or array.shape != argument.shape:
            problems.append(INPUT_MISMATCH.at(
                "", f"input {index} for argument {argument.name}: expected "
                    f"{argument.type.text} ({argument.dtype} {list(argument.shape or ())}), "
                    f"given {given} ({array.dtype} {list(array.shape)})",
                hint=f"np.asarray(x, dtype=np.{argument.dtype}).reshape("
                     f"{tuple(argument.shape or ())})"))
        arrays.append(array)
    if problems:
        raise RunError(problems)
    return arrays
