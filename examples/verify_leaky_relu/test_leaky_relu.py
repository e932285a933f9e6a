"""Property tests of the leaky ReLU op against numpy, two ways. Run them with
`pytest examples/verify_leaky_relu` (they need the `run` and `verify` extras and a Vulkan
device: lavapipe will do).

1. `verify`: 100 generated inputs (zeros, -0.0, the infinities, NaN, subnormals, the
   float32 limits, halves, dense random arrays), run in one scenario-runner process,
   compared with the reference; a failure is shrunk and reported with the `run` command
   that reproduces it (`print(result)` shows it).
2. Your own `@given` test with `tosa_vkshader.testing.inputs(MODEL)`: the same inputs,
   your own assertions; each example is a run of its own, so keep max_examples small.
"""

from pathlib import Path

import numpy as np
from hypothesis import given, settings

import tosa_vkshader
from tosa_vkshader.testing import inputs, verify

HERE = Path(__file__).resolve().parent
MODEL = HERE / "model.mlir"
REFERENCE = f"{HERE / 'ref.py'}:leaky_relu"


def test_leaky_relu_matches_numpy():
    result = verify(MODEL, REFERENCE, examples=100, seed=0, database=None)
    assert result.ok, result


def test_leaky_relu_with_my_own_given_test():
    with tosa_vkshader.prepare(MODEL) as prepared:  # checked and converted once

        @settings(max_examples=5, deadline=None, database=None)
        @given(inputs(MODEL))
        def check(example):
            (x,) = example
            (y,) = prepared.run([x])
            np.testing.assert_array_equal(y, np.where(x > 0, x, np.float32(0.01) * x))

        check()
