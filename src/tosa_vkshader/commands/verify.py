"""`tosa-vkshader verify MODEL --reference ref.py:fn`: property-test a model's ops on the
device against a numpy reference.

The command reads its arguments and reports; the work is ``testing.verify``. Exit 0: no
counterexample in N examples; 1: a counterexample (printed, shrunk, written to
OUTDIR/counterexample/ with the `run` command that reproduces it), or the model has
errors or failed to run; 2: usage, the reference cannot be used (its traceback shown),
environment (toolchain, Vulkan device, hypothesis).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ._common import EXIT_ERRORS, EXIT_OK
from .run_arguments import RunArguments, add_run_arguments, read_run_arguments
from .run_report import print_report, report_error, usage

if TYPE_CHECKING:
    import argparse

    from ..runtime import RunError

# where counterexamples go without -o: OUTDIR = this folder / the model's name
DEFAULT_OUTPUT = Path(".tosa-vkshader") / "verify"


def register(subparsers) -> None:
    from ..testing.defaults import DEFAULT_DATABASE, FLOAT16_RTOL

    parser = subparsers.add_parser(
        "verify", help="property-test a model's ops on a Vulkan device against a numpy "
                       "reference",
        description="Draw inputs from the model's operand types (edge values mixed in: "
                    "0, -0.0, the infinities, NaN, subnormals, the type's limits, halves), "
                    "run the op on them in batches, compare every result with the "
                    "reference, and shrink a failure to a minimal counterexample, written "
                    "with the `run` command that reproduces it. Exit 0: no counterexample; "
                    "1: a counterexample, model errors or a failed run; 2: usage, the "
                    "reference, or environment.")
    parser.add_argument("model", metavar="MODEL",
                        help="a TOSA MLIR file, or an op JSON file with --operands/--results")
    parser.add_argument("--reference", required=True, metavar="REF.py:FN",
                        help="the numpy reference: a function of one array per argument "
                             "(and the push constants by name) returning an array, or a "
                             "tuple of arrays, one per result; REF.py may define inputs(st)")
    parser.add_argument("--examples", type=int, default=100, metavar="N",
                        help="how many generated examples to run (default 100)")
    parser.add_argument("--seed", type=int, metavar="S",
                        help="draw the same examples as an earlier run (default: random; "
                             "the seed used is printed)")
    parser.add_argument("--no-nan", dest="allow_nan", action="store_false",
                        help="never put NaN into the inputs")
    parser.add_argument("-o", "--output-dir", metavar="OUTDIR",
                        help="where counterexample/ is written (default "
                             f"{DEFAULT_OUTPUT}/MODEL-NAME)")
    parser.add_argument("--database", metavar="DIR", default=DEFAULT_DATABASE,
                        help="where the failures found are kept and replayed first "
                             f"(default {DEFAULT_DATABASE})")
    parser.add_argument("--no-database", dest="database", action="store_const", const=None,
                        help="neither keep nor replay failures")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="stop a scenario runner after this long (default 60 s and a "
                             "second per example it runs)")
    add_run_arguments(parser, summary="the verdict", float16_rtol=FLOAT16_RTOL)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..runtime import RunError

    try:
        return _verify(args)
    except RunError as exc:
        return _failed(args, exc)


def _verify(args: argparse.Namespace) -> int:
    from ..testing.verification import run_verification

    def say(message: str) -> int:
        return usage(message, "verify")

    if args.examples < 1:
        return say(f"--examples must be 1 or more, not {args.examples}")
    given = read_run_arguments(args, say, lambda error: _failed(args, error))
    if isinstance(given, int):
        return given
    output = Path(args.output_dir) if args.output_dir is not None else \
        DEFAULT_OUTPUT / Path(args.model).stem
    try:
        result = run_verification(
            given.text, given.path, args.reference, args.examples, seed=args.seed,
            rtol=args.rtol, atol=args.atol, ulp=args.ulp, allow_nan=args.allow_nan,
            push_constants=given.push_constants, write_check=args.write_check,
            validate=given.validate, device=args.device, options=given.options,
            database=args.database, output_dir=output, timeout=args.timeout,
            model_arguments=RunArguments.model_arguments(args))
    except OSError as exc:  # the counterexample's folder or the database
        return say(f"cannot write {exc.filename or ''}: {exc.strerror or exc}")
    failed = not result.ok
    print_report(args, result.diagnostics, result.source, summary=failed)
    stream = sys.stdout if args.format == "text" else sys.stderr
    print(result.summary(), file=stream)
    return EXIT_ERRORS if failed else EXIT_OK


def _failed(args: argparse.Namespace, error: RunError) -> int:
    """The diagnostics of a verification that could not go on; the reference's own
    traceback, when it raised, on stderr under its label."""
    from ..testing.errors import VerifyError

    if not isinstance(error, VerifyError):
        return report_error(args, error)
    print_report(args, error.diagnostics, error.source, summary=True)
    for line in error.details:
        print(line, file=sys.stderr)
    return error.exit_code
