"""The numpy reference of the leaky ReLU op, for `tosa-vkshader verify`:

    tosa-vkshader verify examples/verify_leaky_relu/model.mlir \
        --reference examples/verify_leaky_relu/ref.py:leaky_relu
"""

import numpy as np


def leaky_relu(x):
    """One array per argument of the model's entry function; one array per result."""
    return np.where(x > 0, x, np.float32(0.01) * x)


def inputs(st):
    """Optional: constrain the generated inputs (here: none of them is constrained, the
    line shows how; st.operand(0) alone is the default)."""
    return [st.operand(0, allow_subnormal=True)]
