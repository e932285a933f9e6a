"""`tosa-vkshader new SHADER`: write the attribute object for a compute shader.

The shader is compiled if needed, reflected, and every binding the entry point uses
becomes an input (only read) or an output (written). What the shader does not say (the
format of a sampled image, the dispatch shape) is asked for, never guessed. The result
is checked like any attribute file and written only when it has no errors.
Exit 0: written; 1: problems in the shader or the flags; 2: usage or environment (no such
file, no compiler).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..codegen import CodegenError, op_from_shader
from ..codegen.emit import split_types
from ..fsutil import write_atomic
from ._common import (
    EXIT_OK,
    EXIT_USAGE,
    add_config_arguments,
    exit_status,
    options_from,
    print_diagnostics,
)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "new", help="write the attributes for a compute shader (.comp/.glsl/.hlsl/.spv)",
        description="Compile (if needed) and reflect a compute shader and write its complete "
                    "attribute object, checked. Exit 0: written; 1: the shader or the flags "
                    "have problems (nothing written); 2: usage.")
    parser.add_argument("shader", metavar="SHADER", help="a .comp/.glsl, .hlsl or .spv file")
    parser.add_argument("--name", metavar="OP",
                        help="write an op object (domain_name, operator_name, "
                             "implementation_attrs) named OP instead of bare attributes")
    parser.add_argument("--embed", choices=("source", "spirv"),
                        help="embed the GLSL/HLSL source (default for source files) or "
                             "base64 SPIR-V (default, and the only choice, for .spv)")
    parser.add_argument("--format-of", action="append", default=[], metavar="KEY=VK_FORMAT",
                        help="the VkFormat of one binding; KEY is a binding number, SET:BINDING "
                             "or the variable name (repeatable)")
    parser.add_argument("--entry-point", metavar="NAME",
                        help="the compute entry point (default: main for GLSL, the "
                             "[numthreads] function for HLSL, the only one of a .spv)")
    parser.add_argument("--workgroup-sizes", metavar="X,Y,Z",
                        help="workgroup_sizes to write (default: computed from --results, "
                             "else the shader's local size)")
    parser.add_argument("--operands", metavar="TYPES",
                        help="the op's operand types (comma-separated MLIR tensor types); "
                             "with --results the op is checked as in a model")
    parser.add_argument("--results", metavar="TYPES",
                        help="the op's result types: workgroup_sizes becomes the number of "
                             "workgroups that covers them (workgroup-semantics dispatch)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="where to write the JSON (default: stdout)")
    # The compiler flags a glslc command line for this shader would have.
    parser.add_argument("-D", dest="macros", action="append", default=[],
                        metavar="NAME[=VALUE]", help="define a macro, as glslc -D (repeatable; "
                        "added to `macros` of [tool.tosa-vkshader])")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="allow #include from DIR, as glslc -I (repeatable); includes are "
                             "confined to these folders (and include-dirs of the config)")
    parser.add_argument("--target-env", metavar="ENV",
                        help="glslc's --target-env, e.g. vulkan1.2 (default: vulkan1.3, as "
                             "the reference runtime)")
    add_config_arguments(parser)
    parser.set_defaults(run=run)


def _pairs(values: list[str]) -> list[tuple[str, str]] | None:
    pairs = []
    for value in values:
        key, sep, fmt = value.partition("=")
        if not sep or not key.strip() or not fmt.strip():
            print(f"tosa-vkshader new: --format-of {value!r} is not KEY=VK_FORMAT_...",
                  file=sys.stderr)
            return None
        pairs.append((key.strip(), fmt.strip()))
    return pairs


def _sizes(text: str | None) -> list[int] | None | bool:
    if text is None:
        return None
    try:
        return [int(v) for v in text.replace("x", ",").split(",")]
    except ValueError:
        print(f"tosa-vkshader new: --workgroup-sizes {text!r} is not X,Y,Z", file=sys.stderr)
        return False


def run(args: argparse.Namespace) -> int:
    options = options_from(args)
    pairs = _pairs(args.format_of)
    sizes = _sizes(args.workgroup_sizes)
    if options is None or pairs is None or sizes is False:
        return EXIT_USAGE
    operands = split_types(args.operands) if args.operands is not None else None
    results = split_types(args.results) if args.results is not None else None
    if not Path(args.shader).is_file():
        print(f"tosa-vkshader new: {args.shader}: no such file", file=sys.stderr)
        return EXIT_USAGE
    missing = [d for d in args.include_dirs if not Path(d).is_dir()]
    for folder in missing:
        print(f"tosa-vkshader new: -I {folder}: no such folder", file=sys.stderr)
    if missing:
        return EXIT_USAGE
    options = options.with_overrides(
        macros=(options.macros + tuple((m.partition("=")[0], m.partition("=")[2] if "=" in m
                                        else None) for m in args.macros)) or None,
        include_dirs=(options.include_dirs + tuple(str(Path(d).resolve())
                                                   for d in args.include_dirs)) or None,
        allow_includes=True if args.include_dirs else None,
        target_env=args.target_env)
    try:
        op = op_from_shader(path=args.shader, name=args.name, entry_point=args.entry_point,
                            embed=args.embed, format_of=pairs,
                            workgroup_sizes=sizes or None, operands=operands,
                            results=results, options=options)
    except CodegenError as exc:
        print_diagnostics(args.shader, exc.diagnostics, summary=True)
        return exit_status(exc.diagnostics)
    print_diagnostics(args.shader, op.notes)
    document = op.to_op_object(operands, results) if args.name else op.attrs
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if args.output and args.output != "-":
        try:
            write_atomic(args.output, text.encode("utf-8"))
        except OSError as exc:
            print(f"tosa-vkshader: cannot write {args.output}: {exc.strerror or exc}",
                  file=sys.stderr)
            return EXIT_USAGE
    else:
        sys.stdout.write(text)
    return EXIT_OK
