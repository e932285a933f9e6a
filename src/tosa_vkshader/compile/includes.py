"""The include policy.

glslc resolves ``#include`` itself (relative to the including file, then ``-I``
directories) and will happily read ``/etc/passwd``. So every directive is vetted here,
before glslc sees the source: with includes off (the default) any ``#include`` is an
error; with includes on, the path must be written literally, be relative, contain no
``..``, and resolve (symlinks followed) to a regular file inside a configured directory.
Included files are vetted the same way, recursively.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from hashlib import sha256
from pathlib import Path

from ..diagnostics import Diagnostic, InnerPosition
from ..rule_registry import rule
from .request import CompileRequest, CompileResult
from .scan import Directive, directives

INCLUDES_DISABLED = rule(
    "VKS303",
    summary="The shader uses `#include`, and includes are disabled (the default).",
    why="Attribute files travel between machines; an include makes the shader depend on "
        "files that are not in the model, and lets a shader read files of whoever checks it.",
    bad='"shader_code": "#include \\"common.glsl\\"\\nvoid main() {}"',
    good='"shader_code": "#version 460\\n#define SCALE 2.0\\n..."   // the included text '
         'inlined, or SPIR-V: tosa-vkshader new shader.comp -I include/',
)
INCLUDE_REJECTED = rule(
    "VKS304",
    summary="An `#include` names a file outside the configured include directories.",
    why="Only files under `include-dirs` may be read: absolute paths, `..` and symlinks "
        "leading out could read any file on the machine running the check.",
    bad='#include "/etc/passwd"\n#include "../../secret.glsl"',
    good='#include "common/math.glsl"   (found under an include-dirs entry)',
)

INCLUDE_NOT_IN_RUNTIME = rule(
    "VKS312",
    summary="The shader `#include`s a file, which the reference runtime cannot resolve "
            "when it compiles `shader_code`.",
    why="`allow-includes` lets the checker's own compile read files under `include-dirs`, "
        "but the runtime compiles the embedded text alone, with no include directory: "
        "measured on lavapipe, such an op fails there (\"Compilation error\") although "
        "the checker compiled it.",
    bad='"shader_code": "#version 460\\n#extension GL_GOOGLE_include_directive : '
        'require\\n#include \\"scale.glsl\\"\\n..."',
    good='"shader_language": "SPIR-V"   // tosa-vkshader new shader.comp -I include/ '
         'embeds what it compiled',
)

MAX_INCLUDE_DEPTH = 16
MAX_INCLUDE_BYTES = 1024 * 1024
_LITERAL = re.compile(r'^"(?P<q>[^"]*)"$|^<(?P<a>[^>]*)>$')
_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(slots=True)
class IncludeResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # (printed path as glslc will spell it, sha256 of the content) of every included file
    files: list[tuple[str, str]] = field(default_factory=list)
    # printed path -> (line, column) of the #include in the top-level shader
    sites: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def blocked(self) -> bool:
        return bool(self.diagnostics)


def _path_problem(name: str) -> str | None:
    if not name:
        return "the include names no file"
    if name.startswith(("/", "\\")) or _DRIVE.match(name):
        return "absolute include paths are not allowed"
    parts = re.split(r"[\\/]", name)
    if ".." in parts:
        return "`..` is not allowed in include paths"
    if "\0" in name:
        return "the include path contains a NUL character"
    return None


def _inside(path: str, roots: list[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


class _Vetter:
    def __init__(self, roots: list[str], pointer: str) -> None:
        self.roots = roots
        self.pointer = pointer
        self.result = IncludeResult()
        self.seen: set[str] = set()

    def reject(self, site: Directive, message: str, hint: str | None = None) -> None:
        self.result.diagnostics.append(INCLUDE_REJECTED.at(
            self.pointer, message, hint=hint, inner=InnerPosition(site.line, site.column)))

    def resolve(self, name: str, including_dir: str | None) -> tuple[str, str] | None:
        """(printed path, real path) of the file glslc would open, or None if absent."""
        candidates = ([os.path.join(including_dir, name)] if including_dir else []) + \
            [os.path.join(root, name) for root in self.roots]
        for candidate in candidates:
            if os.path.exists(candidate):
                return candidate, os.path.realpath(candidate)
        return None

    def visit(self, found: list[Directive], including_dir: str | None, site: Directive | None,
              chain: str, depth: int) -> None:
        for d in found:
            if d.name != "include":
                continue
            top = site or d
            match = _LITERAL.match(d.argument)
            if match is None:
                self.reject(top, f"{chain}`#include {d.argument}`: the file must be named "
                                 "literally in quotes or angle brackets",
                            hint="write the path itself, e.g. #include \"common.glsl\"")
                continue
            name = match.group("q") if match.group("q") is not None else match.group("a")
            problem = _path_problem(name)
            if problem:
                self.reject(top, f"{chain}`#include \"{name}\"`: {problem}",
                            hint="name a file relative to one of `include-dirs`")
                continue
            resolved = self.resolve(name, including_dir)
            if resolved is None:
                self.reject(top, f"{chain}`#include \"{name}\"`: not found in the include "
                                 f"directories ({', '.join(self.roots)})")
                continue
            printed, real = resolved
            if not _inside(real, self.roots) or not os.path.isfile(real):
                self.reject(top, f"{chain}`#include \"{name}\"` resolves to `{real}`, outside "
                                 "the include directories (through a symlink)")
                continue
            if site is None:
                self.result.sites.setdefault(printed, (d.line, d.column))
            else:
                self.result.sites.setdefault(printed, (site.line, site.column))
            if real in self.seen:
                continue
            self.seen.add(real)
            self.enter(printed, real, top, chain + f"`{name}` includes ", depth)

    def enter(self, printed: str, real: str, site: Directive, chain: str, depth: int) -> None:
        if depth >= MAX_INCLUDE_DEPTH:
            self.reject(site, f"includes nest deeper than {MAX_INCLUDE_DEPTH} levels")
            return
        try:
            data = Path(real).read_bytes()[: MAX_INCLUDE_BYTES + 1]
        except OSError as exc:
            self.reject(site, f"cannot read included file `{printed}`: {exc.strerror}")
            return
        if len(data) > MAX_INCLUDE_BYTES:
            self.reject(site, f"included file `{printed}` is larger than 1 MiB")
            return
        self.result.files.append((printed, sha256(data).hexdigest()))
        text = data.decode("utf-8", "replace")
        self.visit(directives(text), os.path.dirname(printed), site, chain, depth + 1)


def check_includes(found: list[Directive], allow: bool, include_dirs: list[str],
                   pointer: str) -> IncludeResult:
    """Vet every ``#include`` of a shader whose directives are ``found``.

    ``include_dirs`` must already be absolute real paths of existing directories."""
    includes = [d for d in found if d.name == "include"]
    if not includes:
        return IncludeResult()
    if not allow:
        result = IncludeResult()
        for d in includes:
            result.diagnostics.append(INCLUDES_DISABLED.at(
                pointer, f"`#include {d.argument}`: includes are disabled",
                hint="inline the included code (the reference runtime compiles "
                     "shader_code alone), or embed SPIR-V: `tosa-vkshader new SHADER -I DIR` "
                     "compiles the includes",
                inner=InnerPosition(d.line, d.column)))
        return result
    vetter = _Vetter(include_dirs, pointer)
    if not include_dirs:
        for d in includes:
            vetter.reject(d, f"`#include {d.argument}`: no `include-dirs` are configured")
        return vetter.result
    vetter.visit(found, None, None, "", 0)
    return vetter.result


def includes_not_in_runtime(requests: Sequence[CompileRequest],
                            results: Sequence[CompileResult]) -> list[list[Diagnostic]]:
    """For each GLSL request compiled with its includes, VKS312 at each ``#include``:
    the reference runtime compiles ``shader_code`` without any include directory.
    (A request whose includes were refused already has VKS303 or VKS304.)"""
    found: list[list[Diagnostic]] = [[] for _ in requests]
    for k, (request, result) in enumerate(zip(requests, results, strict=True)):
        if request.language != "GLSL" or result.spirv is None or "include" not in request.source:
            continue
        for d in directives(request.source):
            if d.name == "include":
                found[k].append(INCLUDE_NOT_IN_RUNTIME.at(
                    request.code_pointer,
                    f"`#include {d.argument}`: the reference runtime compiles shader_code "
                    "alone, with no include directory, and cannot resolve it",
                    hint="embed SPIR-V (`tosa-vkshader new SHADER -I DIR` does), or paste "
                         "the included code into shader_code",
                    inner=InnerPosition(d.line, d.column)))
    return found
