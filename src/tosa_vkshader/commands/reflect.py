"""`tosa-vkshader reflect FILE.spv|SHADER.comp|ATTRS.json`: what a SPIR-V module declares,
per entry point. GLSL/HLSL (a .comp/.glsl/.hlsl file, or the shader_code of attributes) is
compiled first, as `check` compiles it.

Exit codes: 0 reflected, 1 the module, the source or the entry point has problems, 2 usage
or environment (missing file, unreadable JSON, no shader in the attributes, no compiler).
"""

from __future__ import annotations

import argparse
import base64
import binascii
import json
import sys
from pathlib import Path
from typing import Any, NamedTuple

from ..compile.request import SHADER_SUFFIXES, Language
from ..diagnostics import Diagnostic, Severity
from ..fsutil import read_limited
from ..sources.jsontext import parse_json
from ..spirv import Reflection, read_module, reflect

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "reflect", help="show a SPIR-V module's entry points, bindings and push constants",
        description="Reflect a SPIR-V module (a .spv file, a GLSL/HLSL file compiled first, "
                    "or the shader_code of an attribute JSON file) in Vulkan's vocabulary.")
    parser.add_argument("file", help="a .spv module, a .comp/.glsl/.hlsl shader or an "
                                     "attribute .json file")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--entry-point", help="entry point to reflect (default: the "
                        "attributes' entry_point, else the module's first)")
    parser.set_defaults(run=run)


class UsageError(Exception):
    pass


class Source(NamedTuple):
    """GLSL/HLSL to compile before reflecting."""

    language: Language
    text: str
    entry_point: str | None


def _module_bytes(path: Path) -> tuple[bytes | Source, str | None]:
    """The SPIR-V bytes in ``path`` and the entry point its attributes name, if any."""
    try:
        raw = read_limited(path)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc
    language = SHADER_SUFFIXES.get(path.suffix.lower())
    if language is not None:
        try:
            return Source(language, raw.decode("utf-8"), None), None
        except UnicodeDecodeError as exc:
            raise UsageError(f"{path} is not UTF-8 text: {exc}") from exc
    if path.suffix.lower() != ".json" and not raw.lstrip()[:1] == b"{":
        return raw, None
    document, problems = parse_json(raw, str(path))
    if document is None:
        raise UsageError(f"{path} is not valid JSON: {problems[0].message}")
    attrs = document.value
    if not isinstance(attrs, dict):
        raise UsageError(f"{path}: the attributes must be a JSON object")
    language, code = attrs.get("shader_language"), attrs.get("shader_code")
    entry = attrs.get("entry_point")
    entry = entry if isinstance(entry, str) and entry else None
    if language in ("GLSL", "HLSL") and isinstance(code, str):
        return Source(language, code, entry), entry
    if language != "SPIR-V" or not isinstance(code, str):
        raise UsageError(f"{path}: reflect needs shader_code with shader_language SPIR-V, "
                         f"GLSL or HLSL (got shader_language {language!r})")
    try:
        data = base64.b64decode(code, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise UsageError(f"{path}: shader_code is not base64: {exc}") from exc
    return data, entry


def _report(where: str, d: Diagnostic) -> None:
    print(f"{where}: {d.severity.label}[{d.code}] {d.message}", file=sys.stderr)
    if d.hint:
        print(f"  = help: {d.hint}", file=sys.stderr)


def render_text(name: str, r: Reflection) -> str:
    lines = [f"{name}: SPIR-V {r.spirv_version}, entry points: "
             + ", ".join(f"{e.name} ({e.execution_model})" for e in r.entry_points)]
    if r.entry_point is None:
        return "\n".join(lines)
    lines.append(f"entry point: {r.entry_point} ({r.execution_model})")
    if r.local_size is not None:
        lines.append(f"local size: {r.local_size.describe()} ({r.local_size.source})")
    if r.bindings:
        lines.append("bindings:")
        for b in r.bindings:
            array = "".join(f"[{d or ''}]" for d in b.array)
            extra = [b.element_type or "", b.image_format or "",
                     f"rank {b.tensor_rank}" if b.tensor_rank else ""]
            lines.append(
                f"  set {b.set} binding {b.binding:<3} {b.descriptor_type:<45} "
                f"{b.name}{array}  {b.access if b.used else 'unused'}  "
                + " ".join(e for e in extra if e))
    if r.push_constants is not None:
        pc = r.push_constants
        lines.append(f"push constants: {pc.name} ({pc.size} bytes"
                     f"{'' if pc.used else ', unused'})")
        for m in pc.members:
            lines.append(f"  {m.name:<16} offset {m.offset:<4} size {m.size:<4} {m.type}")
    for s in r.spec_constants:
        lines.append(f"spec constant {s.spec_id}: {s.name} {s.type} = {s.default}")
    return "\n".join(lines)


def _compile(source: Source, path: Path, entry: str | None) -> tuple[bytes, Any] | int:
    """The SPIR-V ``source`` compiles to and the compiler that produced it, or the exit
    code after printing why not."""
    from ..config_file import ConfigError, load_options
    from ..shader import build_shader
    from ..shader.record import ShaderRequest
    from ._common import exit_status, print_usage_diagnostics

    try:
        options = load_options(path.parent if path.parent.exists() else Path.cwd())
    except ConfigError as exc:
        print_usage_diagnostics(exc.diagnostics)
        return EXIT_USAGE
    request = ShaderRequest(source.language, source.text, entry or source.entry_point or
                            "main", "/shader_code", "/entry_point")
    outcome = build_shader(request, options)
    for d in outcome.diagnostics:
        _report(f"{path}:{d.inner.line}:{d.inner.column}" if d.inner else str(path), d)
    if outcome.shader is None:
        return exit_status(outcome.diagnostics) or EXIT_PROBLEMS
    return outcome.shader.spirv, outcome.shader.compiler


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        data, entry = _module_bytes(path)
    except UsageError as exc:
        print(f"tosa-vkshader reflect: {exc}", file=sys.stderr)
        return EXIT_USAGE
    compiler = None
    if isinstance(data, Source):
        compiled = _compile(data, path, args.entry_point or entry)
        if isinstance(compiled, int):
            return compiled
        data, compiler = compiled
    module, diagnostics = read_module(data, "/shader_code")
    for d in diagnostics:
        _report(str(path), d)
    if module is None:
        return EXIT_PROBLEMS
    wanted = args.entry_point or entry
    reflection = reflect(module, wanted)
    if args.format == "json":
        # "compiler": which compiler produced the module (null for SPIR-V given as is)
        print(json.dumps({**reflection.to_dict(),
                          "compiler": compiler.to_dict() if compiler else None}, indent=2))
    else:
        print(render_text(str(path), reflection))
        if compiler is not None:
            print(f"compiled by: {compiler.summary} ({compiler.path})")
    if reflection.entry_point is None:
        print(f"{path}: no entry point {wanted!r} in the module", file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_PROBLEMS if any(d.severity is Severity.ERROR for d in diagnostics) else EXIT_OK
