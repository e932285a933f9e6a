"""The end of `run`: the diagnostics (the check's warnings, what the device showed, a
mismatch with ``--expect``) in the chosen format, OUTDIR/result_N.npy written and named,
and the device; or the diagnostics of a run that failed.

With ``--format text`` the diagnostics go to stderr and the summary of the results to
stdout; with json, sarif or github the report goes to stdout (for CI) and the summary to
stderr.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    import argparse

    from ..diagnostics import Diagnostic
    from ..runtime import RunError, RunResult
    from ..sources.base import SourceFile


def usage(message: str, command: str = "run") -> int:
    print(f"tosa-vkshader {command}: {message}", file=sys.stderr)
    return EXIT_USAGE


def report_error(args: argparse.Namespace, error: RunError) -> int:
    """The diagnostics of a run that failed, with the summary, and the lines a failing
    tool printed (on stderr, each a line of its own); the exit status."""
    print_report(args, error.diagnostics, error.source, summary=True, details=error.details)
    if error.workdir is not None:
        print(f"work directory kept: {error.workdir}", file=sys.stderr)
    return error.exit_code


def report(args: argparse.Namespace, result: RunResult) -> int:
    """The rest of a run that ran: its diagnostics, OUTDIR/result_N.npy written and named,
    the device, and the comparison with --expect."""
    from ..diagnostics import Severity

    diagnostics = list(result.diagnostics)
    matched = None
    miscounted = False
    if args.expect:
        from ..runtime.compare import compare_results

        expected = [load_npy(name, "--expect") for name in args.expect]
        if any(a is None for a in expected):
            return EXIT_USAGE
        mismatches = compare_results(result.outputs, expected, rtol=args.rtol,
                                     atol=args.atol, ulp=args.ulp, places=result.places)
        diagnostics += mismatches
        matched = not mismatches and len(expected)
        # as many --expect as results is a usage matter, like the inputs' count
        miscounted = len(expected) != len(result.outputs)
    failed = any(d.severity is Severity.ERROR for d in diagnostics)
    print_report(args, diagnostics, result.source, summary=failed)
    # the summary: on stdout for text, on stderr when stdout holds the report
    summary = sys.stdout if args.format == "text" else sys.stderr
    if args.output_dir is not None:
        out = Path(args.output_dir)
        try:
            out.mkdir(parents=True, exist_ok=True)
            for index in range(len(result.raw)):
                _save(out / f"result_{index}.npy", result.npy(index))
        except OSError as exc:
            return usage(f"cannot write to {out}: {exc.strerror or exc}")
        for index, array in enumerate(result.raw):
            print(f"result_{index}: {array.dtype} {list(array.shape)} -> "
                  f"{out / f'result_{index}.npy'}", file=summary)
    else:
        for index, array in enumerate(result.raw):
            print(f"result_{index}: {array.dtype} {list(array.shape)}", file=summary)
    print(f"ran on {result.device or 'the default Vulkan device'}", file=summary)
    if result.workdir is not None:
        print(f"work directory kept: {result.workdir}", file=sys.stderr)
    if matched:
        print(f"all {matched} result(s) match the expected arrays", file=summary)
    return EXIT_USAGE if miscounted else EXIT_ERRORS if failed else EXIT_OK


def print_report(args: argparse.Namespace, diagnostics: list[Diagnostic],
           source: SourceFile | None, *, summary: bool, details: tuple[str, ...] = ()) -> None:
    """The diagnostics in the chosen format (text: on stderr, with the summary line only
    when asked; the others: on stdout, always, so that CI reads one document), and the
    lines a failing tool printed, on stderr before the summary."""
    if args.format == "text" and not diagnostics:
        return
    from ..api import Report
    from ..report import get_reporter
    from ..report.printable import printable

    rendered = get_reporter(args.format)([Report(args.model, diagnostics, source=source)])
    last = ""
    if args.format == "text":
        rendered, _, last = rendered.rpartition("\n\n") if "\n\n" in rendered \
            else (rendered, "", "")
        sys.stderr.write(rendered + "\n")
    else:
        sys.stdout.write(rendered)
    if details:
        print("what the tool printed:", file=sys.stderr)
        for line in details:
            print(f"  {printable(line)}", file=sys.stderr)
    if summary and last:
        sys.stderr.write("\n" + last)


def load_npy(name: str, what: str, *, quiet: bool = False) -> Any:
    import numpy as np

    try:
        return np.load(name, allow_pickle=False)
    except (OSError, ValueError) as exc:
        message = f"cannot read {what} {name}: {getattr(exc, 'strerror', None) or exc}"
        if quiet:
            return message
        print(f"tosa-vkshader run: {message}", file=sys.stderr)
        return None


def _save(path: Path, data: bytes) -> None:
    """A result's .npy file, written atomically (a reader never sees half a file); not
    synced to disk: a result is made again by running again."""
    from ..fsutil import write_atomic

    write_atomic(path, data, durable=False)
