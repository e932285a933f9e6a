"""What the codegen commands share: options from pyproject.toml, printing diagnostics."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from typing import Any

    from ..config import Options
    from ..diagnostics import Diagnostic

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
# A tool the check needs is missing or misconfigured: nothing was really checked, and that
# is an environment problem (exit 2), not a finding about the user's files (exit 1).
ENVIRONMENT_CODES = frozenset({"VKS910", "VKS915", "VKS920", "VKS930"})


def exit_status(diagnostics: list[Diagnostic]) -> int:
    """0 without errors, 2 when an error says the environment is unusable, else 1."""
    from ..diagnostics import Severity

    errors = [d for d in diagnostics if d.severity is Severity.ERROR]
    if any(d.code in ENVIRONMENT_CODES for d in errors):
        return EXIT_USAGE
    return EXIT_ERRORS if errors else EXIT_OK


def add_type_arguments(parser: argparse.ArgumentParser, operands: str, results: str) -> None:
    """``--operands`` and ``--results``: MLIR tensor types separated by commas; given more
    than once, the types add up in order (``--operands A --operands B`` is ``A,B``)."""
    import argparse

    class TypeList(argparse.Action):
        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                     values: Any, option_string: str | None = None) -> None:
            before = getattr(namespace, self.dest, None)
            setattr(namespace, self.dest, values if not before else f"{before},{values}")

    parser.add_argument("--operands", metavar="TYPES", action=TypeList, help=operands)
    parser.add_argument("--results", metavar="TYPES", action=TypeList, help=results)


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    from ..config import WORKGROUP_SEMANTICS

    parser.add_argument("--workgroup-semantics", choices=WORKGROUP_SEMANTICS,
                        help="how to read workgroup_sizes (default: from pyproject.toml, "
                             "else dispatch: the number of workgroups, as the reference runtime)")
    parser.add_argument("--config", type=Path, metavar="PYPROJECT",
                        help="read [tool.tosa-vkshader] from this file instead of the "
                             "nearest pyproject.toml")
    parser.add_argument("--no-cache", action="store_true",
                        help="compile shaders afresh instead of using the compile cache")


def options_from(args: argparse.Namespace) -> Options | None:
    """The options for a command, or None after printing why the config is unusable."""
    from ..config_file import ConfigError, load_options

    try:
        options = load_options(Path.cwd(), args.config)
    except ConfigError as exc:
        print_usage_diagnostics(exc.diagnostics)
        return None
    return options.with_overrides(workgroup_semantics=args.workgroup_semantics,
                                  cache=False if args.no_cache else None)


def print_usage_diagnostics(diagnostics: list[Diagnostic]) -> None:
    """Configuration and command-line problems, on stderr, each at its place when it has
    one (``pyproject.toml:4:1: error[VKS901] ...``)."""
    for diag in diagnostics:
        where = f"{diag.location}: " if diag.location else "tosa-vkshader: "
        print(f"{where}{diag.severity.label}[{diag.code}] {diag.message}", file=sys.stderr)
        if diag.hint:
            print(f"  = help: {diag.hint}", file=sys.stderr)


def print_diagnostics(path: str | None, diagnostics: list[Diagnostic], *,
                      stream=None, summary: bool = False) -> None:
    if not diagnostics:
        return
    # imported here: `run` prints diagnostics only when there are some, and must not
    # load the checker (through the API's Report) before it starts the tools
    from ..api import Report
    from ..report.text import render_text

    text = render_text([Report(path, diagnostics)])
    if not summary:
        text = text.rsplit("\n\n", 1)[0] + "\n" if "\n\n" in text else text
    (stream or sys.stderr).write(text)


def has_errors(diagnostics: list[Diagnostic]) -> bool:
    from ..diagnostics import Severity

    return any(d.severity is Severity.ERROR for d in diagnostics)
