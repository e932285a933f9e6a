"""`tosa-vkshader verify` against what a user writes otherwise: a hypothesis `@given` test
that runs the op once per example.

    PYTHONPATH=src python bench/bench_verify.py [--examples 100] [--given-examples 20]

Two 4,096-element float32 ops on lavapipe, with the write check:

  * a correct one (y = 2x + 1): examples per second of a clean run,
      - verify     `tosa_vkshader.testing.verify(model, reference, examples=N)`: the model
                   checked and converted once, the examples drawn by hypothesis first and
                   run in one scenario-runner process (the time includes preparing the
                   model and drawing the examples);
      - given      `@given(tosa_vkshader.testing.inputs(model))` calling a prepared
                   model's `run` per example (the model checked and converted once; one
                   runner process per example), with `--given-examples` examples;
  * one with a planted bug (a tile's halo loaded one element too far: the last element
    of every 64-element tile is wrong when its neighbours differ): the time to a shrunk
    counterexample,
      - verify     as above: the examples in one process, then shrinking in batches;
      - given      hypothesis finding and shrinking it itself, one runner process per
                   call (its shrinker asks about one candidate at a time).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402

import tosa_vkshader  # noqa: E402
from tosa_vkshader.codegen import op_from_shader  # noqa: E402
from tosa_vkshader.config import Options  # noqa: E402
from tosa_vkshader.testing import inputs, verify  # noqa: E402

T = "tensor<4096xf32>"
HEAD = """#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
"""
TWICE_PLUS_ONE = HEAD + "void main() { uint i = gl_GlobalInvocationID.x; " \
                        "y[i] = 2.0 * x[i] + 1.0; }\n"
BOX3_OFF_BY_ONE = HEAD + """shared float tile[66];
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    tile[l + 1u] = x[i];
    if (l == 0u) { tile[0] = i > 0u ? x[i - 1u] : 0.0; }
    if (l == 63u) { tile[65] = i + 2u < 4096u ? x[i + 2u] : 0.0; }
    barrier();
    y[i] = tile[l] + tile[l + 1u] + tile[l + 2u];
}
"""


def twice_plus_one(x):
    return np.float32(2) * x + np.float32(1)


def box3(x):
    padded = np.concatenate([[np.float32(0)], x, [np.float32(0)]])
    return padded[:-2] + padded[1:-1] + padded[2:]


def model(folder: Path, name: str, shader: str) -> Path:
    dispatch = Options(workgroup_semantics="dispatch")
    op = op_from_shader(shader, language="GLSL", workgroup_sizes=[64, 1, 1], options=dispatch)
    path = folder / f"{name}.mlir"
    path.write_text(op.to_mlir([T], [T], options=dispatch))
    return path


def with_given(path: Path, reference, examples: int) -> tuple[float, int, str]:
    """Wall time, runner processes and the outcome of a @given test over the model's
    inputs running a prepared model once per call."""
    from hypothesis import HealthCheck, given, settings

    calls = 0
    failing: list[np.ndarray] = []  # hypothesis runs the shrunk example last
    started = time.perf_counter()
    with tosa_vkshader.prepare(path) as prepared:

        @settings(max_examples=examples, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
        @given(inputs(path))
        def check(example):
            nonlocal calls
            calls += 1
            (x,) = example
            with np.errstate(all="ignore"):
                expected = reference(x)
            try:
                np.testing.assert_allclose(prepared.run([x])[0], expected, rtol=1e-5,
                                           atol=1e-6)
            except AssertionError:
                failing.append(x)
                raise

        try:
            check()
            outcome = "no failure"
        except AssertionError:
            outcome = f"shrunk to {int(np.count_nonzero(failing[-1]))} non-zero element(s)"
    return time.perf_counter() - started, calls, outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=100)
    parser.add_argument("--given-examples", type=int, default=20)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        good = model(folder, "twice_plus_one", TWICE_PLUS_ONE)
        bad = model(folder, "box3", BOX3_OFF_BY_ONE)
        for path, reference in ((good, twice_plus_one), (bad, box3)):  # (warm: imports,
            verify(path, reference, examples=1, seed=0, database=None)  # compile cache)
        for label, path, reference in (("correct op", good, twice_plus_one),
                                       ("planted bug", bad, box3)):
            started = time.perf_counter()
            result = verify(path, reference, examples=args.examples, seed=0, database=None)
            wall = time.perf_counter() - started
            found = result.counterexample
            outcome = "no failure" if found is None else \
                f"shrunk to {sum(int(np.count_nonzero(a)) for a in found.inputs)} " \
                f"non-zero element(s) in {found.steps} step(s)"
            rows.append((label, "verify", result.examples, wall, result.runner_processes,
                         outcome, result.examples / result.examples_seconds))
            wall, calls, outcome = with_given(path, reference, args.given_examples)
            rows.append((label, "@given + prepared.run", calls, wall, calls, outcome,
                         calls / wall if found is None else None))
    print(f"4,096-element float32 ops on lavapipe, write check on (`python "
          f"bench/bench_verify.py --examples {args.examples} --given-examples "
          f"{args.given_examples}`, load average {os.getloadavg()[0]:.2f}):\n")
    print("| op | way | examples (calls) | wall | runner processes | outcome | examples/s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for label, way, count, wall, processes, outcome, rate in rows:
        shown = "-" if rate is None else f"{rate:.0f}"
        print(f"| {label} | {way} | {count} | {wall:.1f} s | {processes} | {outcome} | "
              f"{shown} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
