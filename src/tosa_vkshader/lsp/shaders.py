"""Shader files and the ops that carry them.

An op carries its shader as text (``shader_code``); a ``.comp``/``.glsl``/``.hlsl`` file
in the editor is checked through the ops that carry it, with the editor's text as their
``shader_code``, so that the compiler's errors and the cross-check's findings show in the
shader itself. An op carries a shader file when

- it is in the shader's **sidecar**: ``relu.comp.json`` or ``relu.json`` beside
  ``relu.comp``, an attribute (or op) object whose shader is that file. Its own
  ``shader_code`` and ``shader_language``, when it has them, are replaced (it may leave
  both out: valid on its own); the language is the file's (``.hlsl``: HLSL, else GLSL);
- or it is an op in the workspace whose ``shader_code`` is the file's saved text (what
  `tosa-vkshader new relu.comp` writes): the shader the op was made from.

Findings about the op's attributes alone stay in the op's own file; the shader shows what
is about the shader (compile errors at their line, declarations a finding names, and the
shader's findings that have no line of their own, at its top, with the op's key beside).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from lsprotocol import types

from ..diagnostics import Diagnostic, Location
from .convert import related as placed
from .documents import SHADER_LANGUAGES
from .positions import Lines

if TYPE_CHECKING:
    from ..config import Options
    from ..sources.base import Op

# Rule groups whose findings are about the shader (3xx shader code and compilation, 4xx
# SPIR-V and cross-check, 7xx target device, 9xx tools): shown in a shader file even
# without a line there. The others are about the attributes and stay in the op's file.
SHADER_GROUPS = ("VKS3", "VKS4", "VKS7", "VKS9")
# The workspace walk for ops that embed a shader stops after this many files, and does
# not read files larger than this: finding a shader's users must not cost a check.
MAX_SCANNED_FILES = 5000
MAX_SCANNED_BYTES = 4 * 1024 * 1024
_WORD_RUN = re.compile(r"[A-Za-z0-9_ ]{8,}")


@dataclass(frozen=True, slots=True)
class ShaderUser:
    """An op that carries a shader file."""

    path: str  # the op's file
    index: int  # which op of the file (in the order the readers give them)
    sidecar: bool  # the shader's sidecar (its shader fields are the file's)


@dataclass(frozen=True, slots=True)
class ShaderFinding:
    diagnostic: Diagnostic  # located in the shader file
    related: tuple[types.DiagnosticRelatedInformation, ...]  # the op's key


def sidecar_of(shader_path: str) -> str | None:
    """The sidecar op file of a shader, when there is one."""
    for candidate in (shader_path + ".json", os.path.splitext(shader_path)[0] + ".json"):
        if os.path.isfile(candidate):
            return candidate
    return None


def shader_of_sidecar(op_path: str) -> str | None:
    """The shader file whose sidecar ``op_path`` is, when there is one."""
    stem = op_path[:-len(".json")] if op_path.lower().endswith(".json") else None
    if stem is None:
        return None
    if os.path.splitext(stem)[1].lower() in SHADER_LANGUAGES and os.path.isfile(stem):
        return stem
    for suffix in SHADER_LANGUAGES:
        if os.path.isfile(stem + suffix):
            return stem + suffix
    return None


def _same_text(a: str, b: str) -> bool:
    return a.replace("\r\n", "\n").strip() == b.replace("\r\n", "\n").strip()


def find_users(shader_path: str, roots: Iterable[str], options_for: Callable[[str], Options],
               text_of: Callable[[str], str | None]) -> list[ShaderUser]:
    """The ops that carry the shader file: its sidecar's, else the ops under ``roots``
    whose ``shader_code`` is the file's saved text. ``text_of`` gives a file's text (the
    editor's, when it is open there; None: unreadable)."""
    from ..sources.read import source_of

    sidecar = sidecar_of(shader_path)
    if sidecar is not None:
        text = text_of(sidecar)
        if text is None:
            return []
        count = len(source_of(text, options_for(sidecar), sidecar).ops)
        return [ShaderUser(sidecar, k, True) for k in range(count)]
    saved = _saved(shader_path)
    if saved is None or not saved.strip():
        return []
    runs = _WORD_RUN.findall(saved)
    needle = max(runs, key=len).strip().encode() if runs else b""
    users: list[ShaderUser] = []
    for path in _op_files(roots, options_for):
        data = _small_file(path)
        if data is None or needle not in data:
            continue
        for k, op in enumerate(source_of(data, options_for(path), path).ops):
            code = op.attributes.get("shader_code") if isinstance(op.attributes, dict) \
                else None
            if isinstance(code, str) and _same_text(code, saved):
                users.append(ShaderUser(path, k, False))
    return users


def _saved(path: str) -> str | None:
    from ..fsutil import read_limited

    try:
        return read_limited(path, MAX_SCANNED_BYTES).decode("utf-8", "replace")
    except OSError:
        return None


def _small_file(path: str) -> bytes | None:
    from ..fsutil import read_limited

    try:
        return read_limited(path, MAX_SCANNED_BYTES)
    except OSError:
        return None  # (too large, unreadable: not an op made from this shader)


def _op_files(roots: Iterable[str], options_for: Callable[[str], Options]) -> list[str]:
    """The JSON and MLIR files under the folders, as `check` walks them (``exclude``
    honoured), at most MAX_SCANNED_FILES."""
    from ..api import iter_files
    from ..config_file import ConfigError

    found: list[str] = []
    try:
        for path in iter_files([r for r in roots if os.path.isdir(r)], options_for):
            if path.lower().endswith((".json", ".mlir")):
                found.append(path)
                if len(found) >= MAX_SCANNED_FILES:
                    break
    except ConfigError:
        pass  # (a broken configuration is reported in the files it applies to)
    return found


def check_shader(shader_path: str, text: str, users: list[ShaderUser],
                 options_for: Callable[[str], Options],
                 text_of: Callable[[str], str | None], encoding: str) -> list[ShaderFinding]:
    """The findings about the shader ``text`` (the editor's) of every op that carries
    it, each op checked with the configuration of its own file; the op's key each comes
    from is placed in the op's file in the position ``encoding``."""
    from ..check import check_ops
    from ..sources.read import source_of

    language = SHADER_LANGUAGES[os.path.splitext(shader_path)[1].lower()]
    lines = text.split("\n")
    findings: dict[tuple[str, int, int, str], ShaderFinding] = {}
    for path in dict.fromkeys(user.path for user in users):
        op_text = text_of(path)
        if op_text is None:
            continue
        options = options_for(path)
        ops = source_of(op_text, options, path).ops
        op_lines = Lines(op_text, encoding)
        pairs: list[tuple[Op, Op]] = []
        for user in users:
            if user.path == path and user.index < len(ops) \
                    and isinstance(ops[user.index].attributes, dict):
                original = ops[user.index]
                pairs.append((original, _with_shader(original, text, language, user.sidecar)))
        checked = check_ops([carrying for _, carrying in pairs], options)
        for (original, _), found in zip(pairs, checked, strict=True):
            for diag in found:
                location = _in_shader(diag, shader_path, lines)
                if location is None:
                    continue
                key = (diag.code, location.line, location.column, diag.message)
                if key not in findings:
                    where = original.locate(replace(diag, pointer=original.base + diag.pointer,
                                                    location=None))
                    related = (placed(path, op_lines, where, f"the op's `{_key_of(diag)}`"),
                               ) if where is not None else ()
                    findings[key] = ShaderFinding(diag.located(location), related)
    return sorted(findings.values(), key=lambda f: f.diagnostic.sort_key())


def _with_shader(op: Op, text: str, language: str, sidecar: bool) -> Op:
    """The op with the shader file's text as its shader (and, from a sidecar, language)."""
    from ..sources.base import Op
    from ..sources.jsontext import pretty_document

    attributes = dict(op.attributes)
    attributes["shader_code"] = text
    if sidecar:
        attributes["shader_language"] = language
    return Op(attributes, op.path, "", name=op.name, context=op.context,
              render=lambda: pretty_document(attributes, op.path))


def _in_shader(diag: Diagnostic, shader_path: str, lines: list[str]) -> Location | None:
    """Where a finding goes in the shader file; None for one about the attributes."""
    position = diag.shader_position
    if position is not None and diag.shader_place is None:
        return Location(shader_path, position.line, position.column)  # a compiler's point
    if position is not None:  # the declaration a finding at a key names: to its line's end
        line = lines[position.line - 1] if position.line <= len(lines) else ""
        return Location(shader_path, position.line, position.column, position.line,
                        len(line.rstrip("\r")) + 1)
    if diag.code.startswith(SHADER_GROUPS):
        return Location(shader_path, 1, 1, 1, len(lines[0].rstrip("\r")) + 1)
    return None


def _key_of(diag: Diagnostic) -> str:
    key = diag.pointer.rsplit("/", 1)[-1]
    return key.replace("~1", "/").replace("~0", "~") or "attributes"
