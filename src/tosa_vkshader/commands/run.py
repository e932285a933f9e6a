"""`tosa-vkshader run MODEL -i IN.npy ... [-o OUTDIR]`: execute a model's ops for real.

The command only reads its arguments and reports: the run is ``runtime.run_model`` (the
model checked, converted with the reference model-converter, run by the scenario runner
on a Vulkan device with the write check, and the validation layer where the static
analysis proves nothing or when asked). Results
are written as OUTDIR/result_N.npy when -o is given; with --expect each result is
compared with a numpy array. Exit 0: ran clean (and matched); 1: the model has errors,
failed to run, the device showed a problem (a run-time finding) or a result differs; 2:
usage, inputs or environment (toolchain, Vulkan device, validation layer).
"""

from __future__ import annotations

import argparse
from typing import Any

from ._common import EXIT_OK
from .run_arguments import add_run_arguments, read_run_arguments
from .run_report import load_npy, report, report_error
from .run_report import usage as _usage


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run", help="run a model's custom shader ops on a Vulkan device and write the results",
        description="Check the model, convert it with the reference model-converter, run it "
                    "with the scenario runner (lavapipe unless a GPU is present or --device "
                    "says otherwise), prove what it wrote (the write check, and the Khronos "
                    "validation layer where the static analysis proves nothing, or with "
                    "--validate) and write OUTDIR/result_N.npy. Exit "
                    "0: ran clean (and matched --expect); 1: model errors, a failed run, a "
                    "run-time finding or a mismatch; 2: usage, inputs or environment.")
    parser.add_argument("model", metavar="MODEL", nargs="?",
                        help="a TOSA MLIR file, or an op JSON file with --operands/--results")
    parser.add_argument("-i", "--input", dest="inputs", action="append", default=[],
                        metavar="IN.npy", help="one .npy per argument of the entry function, "
                                               "in argument order")
    parser.add_argument("-o", "--output-dir", metavar="OUTDIR",
                        help="where result_0.npy, result_1.npy, ... are written")
    parser.add_argument("--expect", action="append", default=[], metavar="R.npy",
                        help="the expected array of each result, in result order")
    parser.add_argument("--list-devices", action="store_true",
                        help="list the Vulkan devices and exit")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="stop the scenario runner after this long (default 60)")
    parser.add_argument("--keep-workdir", action="store_true",
                        help="keep the work directory (model.vgf, scenario.json, files)")
    add_run_arguments(parser, summary="the results' summary")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..runtime import RunError

    try:
        if args.list_devices:
            return _list_devices()
        return _run(args)
    except RunError as exc:
        return report_error(args, exc)


def _list_devices() -> int:
    from ..runtime.devices import list_devices

    for device in list_devices():
        print(f"{device.name}\t{device.type}\t{device.icd}")
    return EXIT_OK


def _run(args: argparse.Namespace) -> int:
    from ..runtime import DEFAULT_TIMEOUT, run_model

    if args.model is None:
        return _usage("give MODEL (or --list-devices)")
    given = read_run_arguments(args, _usage, lambda error: report_error(args, error))
    if isinstance(given, int):
        return given
    for name in args.expect:  # before the run, not after it
        try:
            open(name, "rb").close()
        except OSError as exc:
            return _usage(f"cannot read --expect {name}: {exc.strerror or exc}")
    # the inputs are read while the converter runs (plain .npy files without numpy, which
    # is loaded while the scenario runner works)
    result = run_model(given.text, lambda: _load_inputs(args.inputs), path=given.path,
                       push_constants=given.push_constants, device=args.device,
                       options=given.options, timeout=args.timeout or DEFAULT_TIMEOUT,
                       keep_workdir=args.keep_workdir, write_check=args.write_check,
                       validate=given.validate)
    return report(args, result)


def _load_inputs(names: list[str]) -> list[Any]:
    arrays = [_read_input(name, f"input {index}") for index, name in enumerate(names)]
    problems = [array for array in arrays if isinstance(array, str)]
    if problems:
        from ..runtime import RunError
        from ..runtime.rules import INPUT_MISMATCH

        raise RunError([INPUT_MISMATCH.at("", problem, hint="give a .npy file written by "
                                                            "numpy.save")
                        for problem in problems])
    return arrays


def _read_input(name: str, what: str) -> Any:
    """A plain .npy file's array as bytes (numpy is not loaded for it), else what numpy
    makes of the file: an array, or the message saying why it cannot be read."""
    from ..runtime.npyfile import read_npy

    try:
        with open(name, "rb") as file:
            plain = read_npy(file.read())
    except OSError as exc:
        return f"cannot read {what} {name}: {exc.strerror or exc}"
    return plain if plain is not None else load_npy(name, what, quiet=True)
