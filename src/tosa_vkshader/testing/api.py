"""``tosa_vkshader.testing.inputs``: the strategy of a model's inputs, for ``@given`` tests
of one's own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import require_hypothesis

if TYPE_CHECKING:
    import os
    from collections.abc import Callable

    import numpy as np
    from hypothesis.strategies import SearchStrategy

    from ..config import Options


def inputs(model: str | os.PathLike[str], *, allow_nan: bool = True,
           constraints: Callable[[Any], Any] | None = None,
           options: Options | None = None) -> SearchStrategy[tuple[np.ndarray, ...]]:
    """A hypothesis strategy drawing one tuple of numpy arrays per example: one array per
    argument of the model's entry function, of its dtype and shape, with the edge values
    `verify` uses (``allow_nan`` False: no NaN). ``constraints`` is an ``inputs(st)``
    function, as a reference module defines it. For a model with dynamic dimensions the
    arrays take the sizes `verify` tries (around multiples of the shader's local size).

    ::

        @given(tosa_vkshader.testing.inputs("relu.mlir"))
        def test_relu(example):
            (x,) = example
            np.testing.assert_array_equal(prepared.run([x])[0], np.maximum(x, 0))
    """
    require_hypothesis()
    from ..runtime.api import model_text
    from ..runtime.model import read_entry
    from .shapes import model_sizes
    from .strategies import InputStrategies, input_strategy

    text, _ = model_text(model)
    signature = read_entry(text)
    sizes = model_sizes(signature, None, None)
    if sizes.free:
        sizes = _dynamic_sizes(text, signature, options)
    helper = InputStrategies(signature.arguments, sizes, allow_nan)
    strategy, _domains = input_strategy(helper, constraints(helper) if constraints else None)
    return strategy


def _dynamic_sizes(text: str, signature: Any, options: Options | None) -> Any:
    """The sizes to try, from the shader's local size and the op's dispatch (read from
    the model made static with every size 1)."""
    from ..config import Options
    from ..runtime.model import RunModel
    from ..runtime.shaders import shader_ops
    from ..runtime.verdict import runtime_reading
    from .shapes import Sizes, model_sizes, op_dispatch

    axes = model_sizes(signature, None, None).axes
    ones = (1,) * len(axes)
    static = RunModel.read(Sizes(axes, (ones,)).specialise(text, ones))
    local, dispatch = op_dispatch(shader_ops(static, runtime_reading(options or Options())))
    return model_sizes(signature, local, dispatch)
