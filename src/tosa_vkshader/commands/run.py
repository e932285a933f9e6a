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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._common import EXIT_OK, EXIT_USAGE, add_type_arguments, options_from
from .run_report import load_npy, report, report_error
from .run_report import usage as _usage

if TYPE_CHECKING:
    from ..config import Options

FORMATS = ("text", "json", "sarif", "github")


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
    pushed = parser.add_mutually_exclusive_group()
    pushed.add_argument("--push-constants", metavar="FILE.bin", type=Path,
                        help="raw little-endian bytes of the push-constant block")
    pushed.add_argument("--push-constant", dest="push_values", action="append", default=[],
                        metavar="NAME=VALUE",
                        help="one member of the push-constant block by name (repeatable, "
                             "every member once): scale=2.0, tint=1,0,0,1 (a vector's, "
                             "matrix's or array's components in order); laid out at the "
                             "offsets the shader's block has")
    parser.add_argument("--expect", action="append", default=[], metavar="R.npy",
                        help="the expected array of each result, in result order")
    parser.add_argument("--rtol", type=float, default=1e-5,
                        help="relative tolerance for float results (default 1e-5)")
    parser.add_argument("--atol", type=float, default=1e-6,
                        help="absolute tolerance for float results (default 1e-6)")
    parser.add_argument("--no-write-check", dest="write_check", action="store_false",
                        help="dispatch once, without filling the outputs twice to find the "
                             "elements the shader never wrote (VKS962-VKS964)")
    layer = parser.add_mutually_exclusive_group()
    layer.add_argument("--validate", action="store_const", const=True, default="auto",
                       help="always run under the Khronos validation layer: its core checks "
                            "and GPU-assisted validation (out-of-bounds shader accesses). "
                            "By default the layer is used only where the static analysis "
                            "does not prove an op's buffer accesses in bounds, or its shader "
                            "declares a uniform block (a note says so)")
    layer.add_argument("--no-validate", dest="validate", action="store_const", const=False,
                       help="never use the validation layer, not even where the static "
                            "analysis proves nothing")
    parser.add_argument("--validate-checks", metavar="CHECKS",
                        help="the validation layer's checks instead (implies --validate): "
                             "comma-separated core, gpu-assisted, sync")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="how diagnostics are printed (json, sarif and github go to "
                             "stdout, the results' summary to stderr)")
    parser.add_argument("--device", metavar="NAME",
                        help="run on this device (a part of its name, e.g. llvmpipe)")
    parser.add_argument("--list-devices", action="store_true",
                        help="list the Vulkan devices and exit")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="stop the scenario runner after this long (default 60)")
    parser.add_argument("--keep-workdir", action="store_true",
                        help="keep the work directory (model.vgf, scenario.json, files)")
    add_type_arguments(
        parser,
        "for an op JSON MODEL: comma-separated operand types",
        "for an op JSON MODEL: comma-separated result types")
    parser.add_argument("--name", metavar="OP", help="for an op JSON MODEL: operator_name")
    parser.add_argument("--config", type=Path, metavar="PYPROJECT",
                        help="read [tool.tosa-vkshader] from this file instead of the "
                             "nearest pyproject.toml")
    parser.add_argument("--no-cache", action="store_true",
                        help="compile shaders afresh instead of using the compile cache")
    # workgroup_sizes is read as the runtime reads it (a dispatch count): no choice here
    parser.set_defaults(run=run, workgroup_semantics=None)


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
    if args.timeout is not None and args.timeout <= 0:
        return _usage(f"--timeout must be a positive number of seconds, not {args.timeout:g}")
    validate: bool | str = args.validate_checks or args.validate
    if args.validate_checks is not None and args.validate is False:
        return _usage("--validate-checks asks for the layer that --no-validate turns off")
    if args.validate_checks is not None:
        from ..runtime.validation import Validation

        try:
            Validation.parse(args.validate_checks)
        except ValueError as exc:
            return _usage(f"--validate-checks: {exc}")
    push: bytes | dict[str, str] | None = None
    if args.push_values:
        from ..runtime.push_values import PushValueError, split_assignments

        try:
            push = split_assignments(args.push_values)
        except PushValueError as exc:
            return _usage(str(exc))
    if args.push_constants is not None:
        try:
            push = args.push_constants.read_bytes()
        except OSError as exc:
            return _usage(f"cannot read {args.push_constants}: {exc.strerror or exc}")
    if args.model.lower().endswith(".json"):
        options = options_from(args)
        if options is None:
            return EXIT_USAGE
        text = _module_from_op(Path(args.model), args, options)
        if isinstance(text, int):  # an exit code: the op could not be used
            return text
        loader: Options | Any = options
    else:
        try:
            text = Path(args.model).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return _usage(f"cannot read {args.model}: "
                          f"{getattr(exc, 'strerror', None) or exc}")
        # the configuration is read once the converter has started
        loader = lambda: _options(args)  # noqa: E731
    model_path = args.model if args.model.endswith(".mlir") else None
    # the inputs are read while the converter runs (plain .npy files without numpy, which
    # is loaded while the scenario runner works)
    result = run_model(text, lambda: _load_inputs(args.inputs), path=model_path,
                       push_constants=push, device=args.device, options=loader,
                       timeout=args.timeout or DEFAULT_TIMEOUT, keep_workdir=args.keep_workdir,
                       write_check=args.write_check, validate=validate)
    return report(args, result)


def _options(args: argparse.Namespace) -> Options:
    """The command's options; ConfigError (the run turns it into VKS901, exit 2)."""
    from ..config_file import load_options

    options = load_options(Path.cwd(), args.config)
    return options.with_overrides(cache=False if args.no_cache else None)


def _module_from_op(path: Path, args: argparse.Namespace, options: Options) -> str | int:
    """An op JSON file rendered as a module, exactly as `emit mlir` does."""
    from ..codegen import CodegenError
    from ..runtime.op_document import NotAnOpDocument, module_from_op

    try:
        return module_from_op(path.read_text(encoding="utf-8"), operands=args.operands,
                              results=args.results, name=args.name, default_name=path.stem,
                              options=options)
    except (OSError, UnicodeDecodeError) as exc:
        return _usage(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
    except NotAnOpDocument as exc:
        return _usage(f"{path}: {exc}")
    except CodegenError as exc:
        from ..runtime import RunError

        return report_error(args, RunError(exc.diagnostics))


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
