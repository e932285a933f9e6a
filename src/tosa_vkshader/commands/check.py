"""`tosa-vkshader check PATH... [-]`: check attribute files and print diagnostics."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from ..api import Report, check_paths, validate
from ..config import WORKGROUP_SEMANTICS
from ..config_file import ConfigError, ConfigResolver
from ..report import FORMATS, get_reporter
from ..result_cache import ResultCache
from ..selection import code_problems, no_error_rule_left
from ._common import exit_status, print_usage_diagnostics


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "check",
        help="check attribute JSON, MLIR and .tosa files (folders are walked; - is stdin)",
        description="Check attribute files. Exit 0: no errors; 1: errors found; 2: usage "
                    "or environment problem.")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files or folders to check; - reads one document from stdin")
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument("--select", metavar="CODES",
                        help="comma-separated codes or prefixes to report (e.g. VKS1,VKS220)")
    parser.add_argument("--ignore", metavar="CODES",
                        help="comma-separated codes or prefixes not to report")
    parser.add_argument("--workgroup-semantics", choices=WORKGROUP_SEMANTICS,
                        help="how to read workgroup_sizes (default: dispatch, the number of "
                             "workgroups, as the reference runtime does)")
    parser.add_argument("--config", type=Path, metavar="PYPROJECT",
                        help="read [tool.tosa-vkshader] from this file for every checked "
                             "file, instead of the pyproject.toml nearest to each file")
    parser.add_argument("--stdin-filename", metavar="NAME",
                        help="name to show for the document read from stdin")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="write the report to FILE instead of stdout")
    parser.add_argument("--no-cache", action="store_true",
                        help="check every file afresh: neither the reports of unchanged "
                             "files nor the compile cache are used")
    parser.add_argument("--target-device", action="append", metavar="FILE|NAME",
                        help="also check that the ops can run on this device: a Vulkan "
                             "Profiles JSON file (what `vulkaninfo --json` writes; "
                             "FILE#PROFILE picks one of several) or a shipped profile "
                             "(baseline, roadmap-2024, android-15, ...; `tosa-vkshader "
                             "devices` lists them); repeat for several devices")
    parser.add_argument("--targets-summary", action="store_true",
                        help="print, op by op, which target devices can run it (every "
                             "shipped profile when no target is given) instead of the "
                             "diagnostics")
    parser.add_argument("-j", "--jobs", type=_job_count, metavar="N",
                        help="processes that share the files (default: one per usable "
                             "core when there are enough files to pay for it)")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    parser.set_defaults(run=run)


def _job_count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes >= 1, got "
                                         f"{text!r}")
    return int(text)


def _codes(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    return tuple(c.strip().upper() for c in text.split(",") if c.strip())


def run(args: argparse.Namespace) -> int:
    if not args.paths:
        print("tosa-vkshader check: give at least one PATH (or - for stdin)", file=sys.stderr)
        return 2
    select, ignore = _codes(args.select), _codes(args.ignore)
    typos = code_problems("--select", select) + code_problems("--ignore", ignore)
    if typos:
        print_usage_diagnostics(typos)
        return 2
    # Each file is checked with the [tool.tosa-vkshader] nearest to it (like ruff), unless
    # --config names one for all; command-line options go on top (--target-device
    # replaces the configured targets).
    config = ConfigResolver(args.config, select=select, ignore=ignore,
                            workgroup_semantics=args.workgroup_semantics,
                            cache=False if args.no_cache else None,
                            target_device=tuple(args.target_device)
                            if args.target_device else None)
    reports: list[Report] = []
    file_paths = [p for p in args.paths if p != "-"]
    missing = [p for p in file_paths if not os.path.exists(p)]
    for path in missing:
        print(f"tosa-vkshader check: {path}: no such file or folder", file=sys.stderr)
    if missing:
        return 2
    stdin_name = args.stdin_filename
    try:
        # Read the configurations up front: a broken one is a usage error before any check.
        for path in file_paths or [stdin_name or "."]:
            config.options_for(path)
        if "-" in args.paths:
            config.options_for(Path(stdin_name) if stdin_name else Path.cwd())
    except ConfigError as exc:
        print_usage_diagnostics(exc.diagnostics)
        return 2
    gates = {gate.message: gate for options in config.loaded()
             if (gate := no_error_rule_left(options)) is not None}
    if gates:
        print_usage_diagnostics(list(gates.values()))
    for options in config.loaded():
        if options.target_device:
            from ..devices import ProfileError, load_targets

            try:
                load_targets(options.target_device)
            except ProfileError as exc:
                print_usage_diagnostics(exc.diagnostics)
                return 2
    if args.targets_summary:
        return _summary(args, file_paths, config.options_for(file_paths[0] if file_paths
                                                             else Path.cwd()))
    try:
        if "-" in args.paths:
            options = config.options_for(Path(stdin_name) if stdin_name else Path.cwd())
            # At most one byte over the limit: enough to be reported as too large.
            data = sys.stdin.buffer.read(options.max_file_size + 1)
            reports.append(validate(data, options, path=stdin_name or "<stdin>"))
        progress = ProgressLine(sys.stderr) if sys.stderr.isatty() else None
        # Files checked before, unchanged and under the same options, are not checked
        # again (result_cache.py; --no-cache turns it off with the compile cache).
        results = None if args.no_cache else ResultCache()
        try:
            reports.extend(check_paths(file_paths, config=config,
                                       jobs=args.jobs or _usable_cores(), progress=progress,
                                       results=results))
        finally:
            if progress is not None:
                progress.clear()
            if results is not None:
                results.close()
    except ConfigError as exc:  # a config found only while walking a folder
        print_usage_diagnostics(exc.diagnostics)
        return 2

    color = args.color == "always" or (args.color == "auto" and args.output is None
                                       and sys.stdout.isatty() and "NO_COLOR" not in os.environ)
    text = get_reporter(args.format, color=color)(reports)
    if args.output:
        from ..fsutil import write_atomic

        try:
            write_atomic(args.output, text.encode("utf-8"))
        except OSError as exc:
            print(f"tosa-vkshader check: cannot write {args.output}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return exit_status([d for r in reports for d in r.diagnostics])


class ProgressLine:
    """``checked 120/800 files, 37 shaders compiled`` on a terminal's stderr, redrawn in
    place, once a check has run for :attr:`DELAY` seconds (a quick check shows nothing);
    cleared before the report is printed."""

    DELAY = 2.0

    def __init__(self, stream) -> None:
        self.stream = stream
        self.started = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int, compiled: int) -> None:
        if done >= total or time.monotonic() - self.started < self.DELAY:
            return
        shaders = f", {compiled} shader{'' if compiled == 1 else 's'} compiled" \
            if compiled else ""
        self.stream.write(f"\r\x1b[Kchecked {done}/{total} files{shaders}")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def _usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def _summary(args: argparse.Namespace, paths: list[str], options) -> int:
    from ..api import targets_summary
    from ..devices.summary import render_summary_text, summary_to_dict

    if "-" in args.paths:
        print("tosa-vkshader check: --targets-summary reads files, not stdin", file=sys.stderr)
        return 2
    targets, verdicts = targets_summary(paths, options)
    if args.format == "json":
        import json

        text = json.dumps(summary_to_dict(verdicts, targets), indent=2) + "\n"
    else:
        text = render_summary_text(verdicts, targets)
    if args.output:
        from ..fsutil import write_atomic

        write_atomic(args.output, text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    return 1 if any(not v.runs_on(t.name) for v in verdicts for t in targets) else 0
