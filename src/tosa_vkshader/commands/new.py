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
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Literal

from ..codegen import CodegenError, op_from_shader
from ..codegen.emit import split_types
from ..config import Options
from ..diagnostics import Diagnostic, Location
from ..fsutil import write_atomic
from ._common import (
    EXIT_OK,
    EXIT_USAGE,
    add_config_arguments,
    add_type_arguments,
    exit_status,
    options_from,
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
                        help="embed the GLSL/HLSL source (default for GLSL) or base64 "
                             "SPIR-V (default for HLSL, which the reference runtime cannot "
                             "compile, and the only choice for .spv)")
    parser.add_argument("--format-of", action="append", default=[], metavar="KEY=VK_FORMAT",
                        help="the VkFormat of one binding; KEY is a binding number, SET:BINDING "
                             "or the variable name (repeatable)")
    parser.add_argument("--sampler-of", action="append", default=[],
                        metavar="KEY=FILTER[,ADDRESS[,BORDER]]",
                        help="the sampler of one sampled image, written as its "
                             "input_N_sampler: nearest|linear, then clamp-to-edge (default)|"
                             "repeat|mirrored-repeat|clamp-to-border, then a border colour "
                             "(default float-transparent-black); KEY as for --format-of "
                             "(repeatable)")
    parser.add_argument("--entry-point", metavar="NAME",
                        help="the compute entry point (default: main for GLSL, the "
                             "[numthreads] function for HLSL, the only one of a .spv)")
    parser.add_argument("--workgroup-sizes", metavar="X,Y,Z",
                        help="workgroup_sizes to write (default: computed from --results, "
                             "else the shader's local size)")
    add_type_arguments(
        parser,
        "the op's operand types (comma-separated MLIR tensor types); "
        "with --results the op is checked as in a model",
        "the op's result types: workgroup_sizes becomes the number of "
        "workgroups that covers them (workgroup-semantics dispatch)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="where to write the JSON (default: stdout)")
    # The compiler flags a glslc command line for this shader would have.
    parser.add_argument("-D", dest="macros", action="append", default=[],
                        metavar="NAME[=VALUE]", help="define a macro, as glslc -D (repeatable; "
                        "added to `macros` of [tool.tosa-vkshader]); embedded source gets "
                        "them as #define lines after #version, since the runtime compiles "
                        "it without flags")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="allow #include from DIR, as glslc -I (repeatable); includes are "
                             "confined to these folders (and include-dirs of the config)")
    parser.add_argument("--target-env", metavar="ENV",
                        help="glslc's --target-env, e.g. vulkan1.2 (default: vulkan1.3, as "
                             "the reference runtime)")
    add_config_arguments(parser)
    parser.set_defaults(run=run)


def _pairs(values: list[str], flag: str = "--format-of",
           form: str = "KEY=VK_FORMAT_...") -> list[tuple[str, str]] | None:
    pairs = []
    for value in values:
        key, sep, fmt = value.partition("=")
        if not sep or not key.strip() or not fmt.strip():
            print(f"tosa-vkshader new: {flag} {value!r} is not {form}", file=sys.stderr)
            return None
        pairs.append((key.strip(), fmt.strip()))
    return pairs


def _sizes(text: str | None) -> list[int] | None | Literal[False]:
    """The X,Y,Z of --workgroup-sizes; None when not given; False (after saying why) when
    it is not three numbers."""
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
    samplers = _pairs(args.sampler_of, "--sampler-of", "KEY=FILTER[,ADDRESS[,BORDER]]")
    sizes = _sizes(args.workgroup_sizes)
    if options is None or pairs is None or samplers is None or sizes is False:
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
                            results=results, options=options, sampler_of=samplers)
    except CodegenError as exc:
        _print_placed(exc.diagnostics, args.shader, None, options, summary=True)
        return exit_status(exc.diagnostics)
    document = op.to_op_object(operands, results) if args.name else op.attrs
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    written = args.output if args.output and args.output != "-" else None
    _print_placed(op.notes, args.shader, (written, text) if written else None, options)
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


def _print_placed(diagnostics: Sequence[Diagnostic], shader: str,
                  written: tuple[str, str] | None, options: Options, *,
                  summary: bool = False) -> None:
    """Print the diagnostics at the user's own files: a finding about a line of the
    shader at that line of the shader file; one about a key at that key in the file
    written (``written``: its name and text); else at the shader file as a whole.
    (The op was checked as text of its own, which no user has seen.)"""
    from ..api import Report
    from ..report.text import render_text
    from ..sources.base import SourceFile, TextFile

    if not diagnostics:
        return
    try:
        shader_text = Path(shader).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):  # (a .spv: no lines to show)
        shader_text = ""
    output = None
    if written is not None:
        from ..sources.json_source import read_json

        output = read_json(written[1], written[0], options)
    texts = {shader: shader_text}
    if written is not None:
        texts[written[0]] = written[1]
    by_file: dict[str, list[Diagnostic]] = {}
    for diag in diagnostics:
        placed = _place(diag, shader, shader_text, output)
        where = placed.location.path if placed.location is not None else None
        by_file.setdefault(where or shader, []).append(placed)
    reports = [Report(path, found, SourceFile(path, text=TextFile(texts.get(path, ""), path)))
               for path, found in by_file.items()]
    text = render_text(reports)
    if not summary:
        text = text.rsplit("\n\n", 1)[0] + "\n" if "\n\n" in text else text
    sys.stderr.write(text)


def _place(diag: Diagnostic, shader: str, shader_text: str, output) -> Diagnostic:
    if diag.location is not None and diag.location.path is not None:
        return diag  # placed by codegen itself (at the shader file)
    position = diag.shader_position
    if position is not None and shader_text:
        return replace(diag, location=Location(shader, position.line, position.column),
                       shader_place=None, inner=None)
    if output is not None and output.ops:
        located = output.ops[0].locate(diag)
        if located is not None:
            return diag.located(located)
    return diag.located(Location(shader, 0, 0))
