"""`tosa-vkshader emit mlir|tosa ATTRS`: a real `tosa.custom` op from an attribute file.

ATTRS is a bare attribute object or an op object (its operator_name and types are used
when the flags do not give them). The op is checked with its operand and result types
first; on any error nothing is written.
Exit 0: written; 1: the attributes or the types have errors; 2: usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..codegen import CodegenError, CustomOp
from ..codegen.emit import split_types
from ..fsutil import read_limited, write_atomic
from ..sources.jsontext import parse_json
from ._common import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_USAGE,
    add_config_arguments,
    add_type_arguments,
    options_from,
)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "emit", help="write a tosa.custom op (MLIR or .tosa) from an attribute file",
        description="Render a checked attribute file as a func.func holding a tosa.custom op "
                    "(MLIR text that tosa-opt reads) or as a TOSA flatbuffer. Warnings and "
                    "notes about the op are printed on stderr. Exit 0: written; 1: errors "
                    "(nothing written); 2: usage.",
        epilog="example: tosa-vkshader emit mlir add.json --operands "
               "'tensor<1x64xf32>,tensor<1x64xf32>' --results 'tensor<1x64xf32>' -o add.mlir",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("form", choices=("mlir", "tosa"))
    parser.add_argument("attrs", metavar="ATTRS", help="an attribute or op-object JSON file")
    add_type_arguments(
        parser,
        "the op's operand types, MLIR tensor types separated by commas, "
        "in operand order and quoted for the shell: --operands "
        "'tensor<1x16x16x4xi8>' for one, --operands "
        "'tensor<1x64xf32>,tensor<64xi8>' for two (commas inside a "
        "type, as in tensor<?x4xf32, #enc>, are kept); '' for none",
        "the op's result types, written like --operands: "
        "--results 'tensor<1x64xf32>'")
    parser.add_argument("--name", metavar="OP", help="operator_name (default: the op "
                        "object's, else the file's stem)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="where to write (default: stdout for MLIR; required for tosa)")
    add_config_arguments(parser)
    parser.set_defaults(run=run)


def _load(path: Path) -> tuple[dict, bytes] | None:
    """The JSON object in ``path`` and the file's bytes (to place diagnostics in)."""
    try:
        data = read_limited(path)
    except OSError as exc:
        print(f"tosa-vkshader emit: cannot read {path}: {exc.strerror or exc}",
              file=sys.stderr)
        return None
    document, problems = parse_json(data, str(path))
    if document is None:
        print(f"tosa-vkshader emit: cannot read {path}: {problems[0].message}",
              file=sys.stderr)
        return None
    value = document.value
    if not isinstance(value, dict):
        print(f"tosa-vkshader emit: {path} does not hold a JSON object", file=sys.stderr)
        return None
    return value, data


def _print_in_file(path: Path, data: bytes, diagnostics: list, options, *,
                   summary: bool = False) -> None:
    """The diagnostics at their places in the attribute file (they were found in the op
    as rendered for checking, whose lines the user never saw)."""
    if not diagnostics:
        return
    from ..api import Report
    from ..check import finish
    from ..report.text import render_text
    from ..sources.json_source import read_json

    source = read_json(data, str(path), options)
    op = source.ops[0] if source.ops else None
    placed = finish([d.located(None) for d in diagnostics], op, str(path), options)
    text = render_text([Report(str(path), placed, source)])
    if not summary:
        text = text.rsplit("\n\n", 1)[0] + "\n" if "\n\n" in text else text
    sys.stderr.write(text)


def _notes(op: CustomOp, operands: list[str], results: list[str], options) -> list:
    from ..codegen.emit import check_op

    found, seen = [], set()
    for diag in [*op.notes, *check_op(op, operands, results, options)]:
        key = (diag.code, diag.pointer, diag.message)
        if key not in seen:
            seen.add(key)
            found.append(diag.located(None))  # positions in generated text mean nothing
    return found


def run(args: argparse.Namespace) -> int:
    options = options_from(args)
    if options is None:
        return EXIT_USAGE
    if args.form == "tosa" and (not args.output or args.output == "-"):
        print("tosa-vkshader emit: emit tosa needs -o FILE.tosa", file=sys.stderr)
        return EXIT_USAGE
    path = Path(args.attrs)
    loaded = _load(path)
    if loaded is None:
        return EXIT_USAGE
    document, file_data = loaded
    attrs = document.get("implementation_attrs", document)
    if isinstance(attrs, str):
        try:
            attrs = json.loads(attrs)
        except json.JSONDecodeError as exc:
            print(f"tosa-vkshader emit: {path}: implementation_attrs is not JSON: {exc}",
                  file=sys.stderr)
            return EXIT_USAGE
    name = args.name or document.get("operator_name") or path.stem
    operands = split_types(args.operands) if args.operands is not None else \
        document.get("inputs")
    results = split_types(args.results) if args.results is not None else \
        document.get("outputs")
    if operands is None or results is None:
        print("tosa-vkshader emit: give --operands and --results (the op's tensor types)",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        op = CustomOp.from_attributes(attrs, name, options=options)
        if args.form == "mlir":
            data = op.to_mlir(operands, results, options=options).encode("utf-8")
        else:
            data = op.to_tosa_bytes(operands, results, options=options)
    except CodegenError as exc:
        _print_in_file(path, file_data, exc.diagnostics, options, summary=True)
        return EXIT_ERRORS
    # The op is written, but never silently over its warnings and notes: those of the
    # attributes and those that only show with the op's tensor types (VKS515, VKS518).
    _print_in_file(path, file_data, _notes(op, operands, results, options), options)
    if args.output and args.output != "-":
        try:
            write_atomic(args.output, data)
        except OSError as exc:
            print(f"tosa-vkshader: cannot write {args.output}: {exc.strerror or exc}",
                  file=sys.stderr)
            return EXIT_USAGE
    else:
        sys.stdout.write(data.decode("utf-8"))
    return EXIT_OK
