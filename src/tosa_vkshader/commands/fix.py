"""`tosa-vkshader fix PATH...`: apply the fixes the diagnostics carry.

The safe fixes of every diagnostic (near-miss keys renamed where the grammar knows the
one right name, `_type` spelled canonically, registry aliases written as the converter
knows them...), with `--unsafe-fixes` the unsafe ones too; then the missing `_type`
members, with `--embed spirv` GLSL/HLSL replaced by SPIR-V, with `--sort-keys` the
canonical key order (codegen/repair.py). Repairs are minimal edits: the rest of the file
stays byte for byte. `--diff` prints what would change and writes nothing. Files are
replaced atomically; a file whose repair is ambiguous is left untouched. Every file's
changes and the problems that remain after them (with their codes) are listed on stderr.
Exit 0: no errors left; 1: errors remain (or a repair was refused); 2: usage.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from ..api import iter_files, read_source
from ..codegen.repair import repair
from ..diagnostics import Diagnostic, Severity
from ..fsutil import read_limited, write_atomic
from ._common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, add_config_arguments, options_from
from ._common import print_diagnostics as show


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "fix", help="repair attribute files mechanically (key names, _type, key order, "
                    "embedded SPIR-V)",
        description="Apply mechanical repairs to attribute files, as minimal edits. Lists "
                    "what was changed and what is left. Exit 0: no errors left; 1: errors "
                    "remain that fix cannot repair (or a repair was ambiguous: the file is "
                    "left untouched); 2: usage.")
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="attribute JSON and TOSA MLIR files, or folders walked for them")
    parser.add_argument("--diff", action="store_true",
                        help="print a unified diff of the repairs and write nothing")
    parser.add_argument("--embed", choices=("spirv",),
                        help="replace GLSL/HLSL shader_code by the base64 SPIR-V it compiles "
                             "to (for runtimes without a compiler)")
    parser.add_argument("--unsafe-fixes", action="store_true",
                        help="also apply the unsafe fixes: those that may change what the op "
                             "means (a guessed name, `_type` made to agree with the "
                             "descriptor type)")
    parser.add_argument("--sort-keys", action="store_true",
                        help="also rewrite each object with its keys in canonical order "
                             "(otherwise only the repaired keys and values are touched)")
    add_config_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    options = options_from(args)
    if options is None:
        return EXIT_USAGE
    missing = [p for p in args.paths if not Path(p).exists()]
    for path in missing:
        print(f"tosa-vkshader fix: {path}: no such file or folder", file=sys.stderr)
    if missing:
        return EXIT_USAGE
    failed = False
    for path in iter_files(args.paths, options):
        if path.endswith(".tosa"):
            continue  # a flatbuffer: its ops are not rewritten here
        try:
            data = read_limited(path, options.size_limit(path))
        except OSError as exc:
            print(f"tosa-vkshader fix: cannot read {path}: {exc.strerror or exc}",
                  file=sys.stderr)
            failed = True
            continue
        if read_source(data, path, options).skipped:
            continue  # package.json and friends: not an op, nothing to repair
        result = repair(data, path, options, unsafe=args.unsafe_fixes,
                        embed_spirv=args.embed == "spirv", sort_keys=args.sort_keys)
        show(path, result.problems)
        if result.fixed is None:  # refused: the file stays as it is
            failed = True
            continue
        left = result.left
        verb = "would change" if args.diff else "changed"
        for change in result.changes:
            print(f"{path}: {verb}: {change}", file=sys.stderr)
        _summary(path, result.found, left, args.diff)
        if left:
            show(path, left, summary=False)
        failed = failed or any(d.severity is Severity.ERROR for d in left)
        if not result.changed:
            continue
        if args.diff:
            sys.stdout.write(result.diff())
            continue
        try:
            write_atomic(path, result.fixed.encode("utf-8"))
        except OSError as exc:
            print(f"tosa-vkshader fix: cannot write {path}: {exc.strerror or exc}",
                  file=sys.stderr)
            failed = True
    return EXIT_ERRORS if failed else EXIT_OK


def _summary(path: str, before: list[Diagnostic], left: list[Diagnostic], preview: bool
             ) -> None:
    """`op.json: fixed 2 (VKS111, VKS112); not fixed: 1 error (VKS220)`, codes counted."""
    remaining = Counter(d.code for d in left)
    fixed = Counter(d.code for d in before) - remaining
    errors = [d for d in left if d.severity is Severity.ERROR]
    parts = []
    if fixed:
        parts.append(f"{'would fix' if preview else 'fixed'} {sum(fixed.values())} "
                     f"({', '.join(sorted(fixed))})")
    if errors:
        parts.append(f"not fixed: {len(errors)} error(s) "
                     f"({', '.join(sorted({d.code for d in errors}))})")
    elif left:
        parts.append(f"left: {len(left)} warning(s)/info(s) "
                     f"({', '.join(sorted({d.code for d in left}))})")
    if parts:
        print(f"{path}: {'; '.join(parts)}", file=sys.stderr)
