"""What `verify` reports (VKS970-VKS979): a counterexample, a reference that cannot be
used, hypothesis missing."""

from __future__ import annotations

from ..rule_registry import rule

COUNTEREXAMPLE = rule(
    "VKS970",
    summary="`verify` found inputs on which the op's results differ from the numpy "
            "reference (or on which the device showed an error), and shrank them.",
    why="A shader that is right on the inputs someone thought of is often wrong at the "
        "edges: the last partial workgroup, negative integers under rounding or shifts, "
        "int8 saturation, NaN and the infinities, float16 precision, the element past a "
        "tile. `verify` runs the op for real on many generated inputs, these among them, "
        "compares every result with the reference, and shrinks a failure to a small "
        "input; the counterexample is written with the `run` command that shows it again.",
    bad="tosa-vkshader verify relu.mlir --reference ref.py:relu   # shader: x > 0.0 ? x : "
        "0.0 (NaN becomes 0)",
    good="tosa-vkshader verify relu.mlir --reference ref.py:relu   # shader: isnan(x) || "
         "x > 0.0 ? x : 0.0",
)
REFERENCE_FAILED = rule(
    "VKS971",
    summary="The reference given to `verify` cannot be used: it cannot be imported, is "
            "not a function, raised, or returned something else than one array per result.",
    why="Without a working reference there is nothing to compare the device with; the "
        "traceback of the reference's own code is shown, labelled as such, so that it is "
        "not taken for a failure of the tool or of the op.",
    bad="def relu(x): return np.maximum(x, 0), x   # two arrays for a model with one result",
    good="def relu(x): return np.maximum(x, 0)",
)
HYPOTHESIS_MISSING = rule(
    "VKS972",
    summary="`verify` needs hypothesis, which is not installed.",
    why="The inputs are drawn by hypothesis' engine from strategies built for the model's "
        "operand types; it is an optional dependency, installed with the `verify` extra.",
    bad="pip install 'tosa-vkshader[run]' && tosa-vkshader verify model.mlir --reference "
        "ref.py:fn",
    good="pip install 'tosa-vkshader[run,verify]'",
)
