"""What `run` and `verify` read alike from their command lines: the model (a TOSA MLIR
file, or an op JSON file with ``--operands``/``--results``) and its configuration, the
push constants, how results are compared, the write check, the validation layer, the
device and the time limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._common import EXIT_USAGE, add_type_arguments, options_from

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    from ..config import Options

FORMATS = ("text", "json", "sarif", "github")


def add_run_arguments(parser: argparse.ArgumentParser, *, summary: str,
                      float16_rtol: float | None = None) -> None:
    """The options both commands take; ``summary`` says what goes to stdout or stderr
    beside the report. --rtol and --atol are None unless given (``float16_rtol``: the
    command decides by the results' types, that relative tolerance for float16)."""
    pushed = parser.add_mutually_exclusive_group()
    pushed.add_argument("--push-constants", metavar="FILE.bin", type=Path,
                        help="raw little-endian bytes of the push-constant block")
    pushed.add_argument("--push-constant", dest="push_values", action="append", default=[],
                        metavar="NAME=VALUE",
                        help="one member of the push-constant block by name (repeatable, "
                             "every member once): scale=2.0, tint=1,0,0,1 (a vector's, "
                             "matrix's or array's components in order); laid out at the "
                             "offsets the shader's block has")
    by_type = f"; {float16_rtol:g} when a result is float16" if float16_rtol else ""
    # (None when not given, so that --ulp with either is refused rather than one ignored)
    parser.add_argument("--rtol", type=float, default=None,
                        help=f"relative tolerance for float results (default 1e-5{by_type})")
    parser.add_argument("--atol", type=float, default=None,
                        help="absolute tolerance for float results (default 1e-6)")
    parser.add_argument("--ulp", type=int, metavar="K",
                        help="instead of --rtol/--atol: float results may be at most K "
                             "representable values (units in the last place) away")
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
                        help=f"how diagnostics are printed (json, sarif and github go to "
                             f"stdout, {summary} to stderr)")
    parser.add_argument("--device", metavar="NAME",
                        help="run on this device (a part of its name, e.g. llvmpipe)")
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
    parser.set_defaults(workgroup_semantics=None)


@dataclass(frozen=True, slots=True)
class RunArguments:
    """The model's MLIR text (an op JSON file rendered as a module), its path when it is
    an MLIR file, its options (or the function that loads them once the converter has
    started), the push constants (bytes, or values by name) and the validation asked
    for (True, False, ``"auto"`` or the checks)."""

    text: str
    path: str | None
    options: Options | Callable[[], Options]
    push_constants: bytes | dict[str, str] | None
    validate: bool | str

    @staticmethod
    def model_arguments(args: argparse.Namespace) -> list[str]:
        """How the command line named the model: the file and, for an op JSON file, its
        types and name; the configuration file."""
        named = [args.model]
        for flag, value in (("--operands", args.operands), ("--results", args.results),
                            ("--name", args.name), ("--config", args.config)):
            if value is not None:
                named += [flag, str(value)]
        return named


def read_run_arguments(args: argparse.Namespace, usage: Callable[[str], int],
                       report_error: Callable[[Any], int]) -> RunArguments | int:
    """The arguments as :class:`RunArguments`, or the exit code after saying what is
    wrong with them (``usage`` for the command line, ``report_error`` for a RunError)."""
    if args.timeout is not None and args.timeout <= 0:
        return usage(f"--timeout must be a positive number of seconds, not {args.timeout:g}")
    if args.ulp is not None and args.ulp < 0:
        return usage(f"--ulp must be 0 or more, not {args.ulp}")
    if args.ulp is not None and (args.rtol is not None or args.atol is not None):
        return usage("give --rtol/--atol or --ulp, not both")
    validate: bool | str = args.validate_checks or args.validate
    if args.validate_checks is not None and args.validate is False:
        return usage("--validate-checks asks for the layer that --no-validate turns off")
    if args.validate_checks is not None:
        from ..runtime.validation import Validation

        try:
            Validation.parse(args.validate_checks)
        except ValueError as exc:
            return usage(f"--validate-checks: {exc}")
    push: bytes | dict[str, str] | None = None
    if args.push_values:
        from ..runtime.push_values import PushValueError, split_assignments

        try:
            push = split_assignments(args.push_values)
        except PushValueError as exc:
            return usage(str(exc))
    if args.push_constants is not None:
        try:
            push = args.push_constants.read_bytes()
        except OSError as exc:
            return usage(f"cannot read {args.push_constants}: {exc.strerror or exc}")
    options: Options | Callable[[], Options]
    if args.model.lower().endswith(".json"):
        loaded = options_from(args)
        if loaded is None:
            return EXIT_USAGE
        text = _module_from_op(Path(args.model), args, loaded, usage, report_error)
        if isinstance(text, int):  # an exit code: the op could not be used
            return text
        options = loaded
    else:
        try:
            text = Path(args.model).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return usage(f"cannot read {args.model}: "
                         f"{getattr(exc, 'strerror', None) or exc}")
        # the configuration is read once the converter has started
        options = lambda: _options(args)  # noqa: E731
    path = args.model if args.model.endswith(".mlir") else None
    return RunArguments(text, path, options, push, validate)


def _options(args: argparse.Namespace) -> Options:
    """The command's options; ConfigError (the run turns it into VKS901, exit 2)."""
    from ..config_file import load_options

    options = load_options(Path.cwd(), args.config)
    return options.with_overrides(cache=False if args.no_cache else None)


def _module_from_op(path: Path, args: argparse.Namespace, options: Options,
                    usage: Callable[[str], int],
                    report_error: Callable[[Any], int]) -> str | int:
    """An op JSON file rendered as a module, exactly as `emit mlir` does."""
    from ..codegen import CodegenError
    from ..runtime.op_document import NotAnOpDocument, module_from_op

    try:
        return module_from_op(path.read_text(encoding="utf-8"), operands=args.operands,
                              results=args.results, name=args.name, default_name=path.stem,
                              options=options)
    except (OSError, UnicodeDecodeError) as exc:
        return usage(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
    except NotAnOpDocument as exc:
        return usage(f"{path}: {exc}")
    except CodegenError as exc:
        from ..runtime import RunError

        return report_error(RunError(exc.diagnostics))
