"""Property tests of an op on the device against a numpy reference.

``verify(model, reference, examples=100, ...)`` draws inputs from the model's operand
types (edge values mixed in), runs the op on them in batches, compares every result with
the reference and shrinks a failure to a minimal counterexample; ``inputs(model)`` gives
the hypothesis strategy of the model's inputs, for ``@given`` tests of one's own;
``assume(condition)`` in a reference rejects an example. Needs
hypothesis: the ``verify`` extra (``pip install 'tosa-vkshader[verify]'``), imported
only when one of them is called.
"""

from __future__ import annotations

from .api import inputs
from .counterexample import Counterexample
from .errors import VerifyError
from .reference import assume
from .verification import VerifyResult, verify

__all__ = ["Counterexample", "VerifyError", "VerifyResult", "assume", "inputs", "verify"]
