"""`tosa-vkshader fix PATH...`: mechanical repairs of attribute files.

Near-miss keys renamed where the grammar knows the one right name, `_type` case, missing
`_type`, canonical key order, and with `--embed spirv` GLSL/HLSL replaced by SPIR-V.
`--diff` prints what would change and writes nothing. Files are replaced atomically; a
file whose repair is ambiguous is left untouched.
Exit 0: nothing left that fix must refuse; 1: some file could not be repaired; 2: usage.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..api import iter_files
from ..codegen.fix import fix_text
from ..fsutil import read_limited, write_atomic
from ._common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, add_config_arguments, options_from
from ._common import print_diagnostics as show


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "fix", help="repair attribute files mechanically (key names, _type, key order, "
                    "embedded SPIR-V)",
        description="Apply mechanical repairs to attribute files. Exit 0: done; 1: a file "
                    "had a problem fix must not guess at (left untouched); 2: usage.")
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="attribute files, or folders walked for *.json")
    parser.add_argument("--diff", action="store_true",
                        help="print a unified diff of the repairs and write nothing")
    parser.add_argument("--embed", choices=("spirv",),
                        help="replace GLSL/HLSL shader_code by the base64 SPIR-V it compiles "
                             "to (for runtimes without a compiler)")
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
        if not path.endswith(".json"):
            continue  # MLIR and .tosa files are models: their ops are not rewritten here
        try:
            data = read_limited(path, options.max_file_size)
        except OSError as exc:
            print(f"tosa-vkshader fix: cannot read {path}: {exc.strerror or exc}",
                  file=sys.stderr)
            failed = True
            continue
        result = fix_text(data, path, embed_spirv=args.embed == "spirv", options=options)
        show(path, result.diagnostics)
        failed = failed or not result.ok
        if not result.changed or result.fixed is None:
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
            continue
        for change in result.changes:
            print(f"{path}: {change}", file=sys.stderr)
    return EXIT_ERRORS if failed else EXIT_OK
