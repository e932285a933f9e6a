"""Property tests of an op on the device against a numpy reference.

``verify(model, reference, examples=100, ...)`` draws inputs from the model's operand
types (edge values mixed in), runs the op on them in batches, compares every result with
the reference and shrinks a failure to a minimal counterexample; ``inputs(model)`` gives
the hypothesis strategy of the model's inputs, for ``@given`` tests of one's own;
``assume(condition)`` in a reference rejects an example. Needs hypothesis: the
``verify`` extra (``pip install 'tosa-vkshader[verify]'``), imported only when one of
them is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .api import inputs
    from .counterexample import Counterexample
    from .errors import VerifyError
    from .reference import assume
    from .verification import VerifyResult, verify

# Each public name is imported on first use (numpy with it): the command line lists
# `verify` among its commands without loading any of it.
_LAZY = {"inputs": "api", "Counterexample": "counterexample", "VerifyError": "errors",
         "assume": "reference", "VerifyResult": "verification", "verify": "verification"}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tosa_vkshader.testing' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = ["Counterexample", "VerifyError", "VerifyResult", "assume", "inputs", "verify"]
