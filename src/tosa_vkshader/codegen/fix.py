"""Mechanical repairs of attribute files: what ``tosa-vkshader fix`` does.

A repair is mechanical when there is exactly one way to make it: a near-miss key whose
corrected name the key grammar knows and that is not taken, a ``_type`` in the wrong
case, a missing ``_type`` that the descriptor type determines, and (asked for) GLSL/HLSL
replaced by the SPIR-V it compiles to; the canonical key order only when asked for
(``sort_keys``). Anything else is left to the user: a file with an ambiguous repair is not
changed at all, so that it is never half repaired.

Repairs are minimal edits of the text: a renamed key's token, a changed value's token, a
new ``_type`` member after its ``_vkdescriptortype``. Everything else (key order,
indentation, how arrays are laid out, the trailing newline or its absence) stays byte for
byte as it was, so the diff shows exactly the repair.
"""

from __future__ import annotations

import base64
import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from .. import registry
from ..compile import CompileOptions, CompileRequest, compile_many
from ..config import Options
from ..diagnostics import Diagnostic, Severity, pointer_join
from ..keys import KeyKind, classify, resource_key
from ..rules.resources import KIND_OF_DESCRIPTOR, RESOURCE_KINDS
from ..sources.jsontext import JsonDocument, Span, parse_json
from .order import canonical_order
from .rules import FIX_AMBIGUOUS, FIX_EMBED_FAILED, FIX_UNREADABLE


@dataclass(slots=True)
class FixResult:
    """One file's repairs. ``fixed`` is the new text, or None when the file must stay as
    it is (unreadable, or a repair is ambiguous)."""

    path: str | None
    original: str
    fixed: str | None
    changes: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # The minimal edits that turn ``original`` into ``fixed``: (start, end, new text).
    replacements: list[tuple[int, int, str]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.fixed is not None and self.fixed != self.original

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    def diff(self) -> str:
        """A unified diff from the original to the fixed text ("" when unchanged), valid
        for `patch` and `git apply` also when a file does not end with a newline."""
        if not self.changed or self.fixed is None:
            return ""
        return unified_diff(self.original, self.fixed, self.path or "<input>")


def unified_diff(before: str, after: str, name: str) -> str:
    """A unified diff; a last line without a newline is marked as diff(1) does."""
    out = []
    for line in difflib.unified_diff(before.splitlines(keepends=True),
                                     after.splitlines(keepends=True),
                                     fromfile=f"a/{name.lstrip('/')}",
                                     tofile=f"b/{name.lstrip('/')}"):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Edit:
    """One change to an attribute object, in the terms of its keys (after renames)."""

    kind: str  # "rename" (key -> new key), "value" (key gets value), "add" (key after anchor)
    key: str
    new: Any
    anchor: str | None = None


@dataclass(slots=True)
class _Repair:
    base: str
    document: JsonDocument | None
    changes: list[str] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)

    def problem(self, diagnostic: Diagnostic) -> None:
        if self.document is not None and diagnostic.location is None:
            diagnostic = diagnostic.located(self.document.locate(
                diagnostic.pointer, on_key=diagnostic.on_key, inner=diagnostic.inner))
        self.problems.append(diagnostic)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def fix_text(data: bytes | str, path: str | None = None, *, embed_spirv: bool = False,
             sort_keys: bool = False, options: Options | None = None) -> FixResult:
    """Repair one attribute file's text (an attribute object, or an op object whose
    ``implementation_attrs`` is an object) by minimal edits; with ``sort_keys`` the
    object is rewritten with its keys in canonical order instead."""
    options = options or Options()
    original = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    document, problems = parse_json(data, path, max_bytes=options.max_file_size,
                                    max_depth=options.max_depth)
    result = FixResult(path, original, None)
    if document is None or not isinstance(document.value, dict):
        result.diagnostics.extend(problems)
        what = "it is not valid JSON" if document is None else "it is not a JSON object"
        result.diagnostics.append(FIX_UNREADABLE.at(
            "", f"{path or '<input>'}: nothing fixed: {what}").located(
            document.locate("") if document else None))
        return result
    if problems:  # duplicate keys: which value is meant is not mechanical
        result.diagnostics.extend(problems)
        result.diagnostics.append(FIX_AMBIGUOUS.at(
            "", f"{path or '<input>'}: nothing fixed: the file has duplicate keys, and which "
                "value is meant is not a mechanical decision",
            hint="remove the duplicates by hand, then run fix again").located(
            document.locate("")))
        return result
    value = document.value
    base = ""
    if isinstance(value.get("implementation_attrs"), dict) and "domain_name" in value:
        base = "/implementation_attrs"
    repair = _Repair(base, document)
    attrs = value["implementation_attrs"] if base else value
    fixed = fix_attributes(attrs, repair, embed_spirv=embed_spirv, sort_keys=sort_keys,
                           options=options)
    result.changes, result.diagnostics = repair.changes, repair.problems
    if fixed is None:
        return result
    if not result.changes:
        result.fixed = original
    elif sort_keys:
        whole = {**value, "implementation_attrs": fixed} if base else fixed
        result.fixed = _dumps(whole, indent=2) + "\n"
    else:
        bom = "\ufeff" if original.startswith("\ufeff") else ""
        result.replacements = edit_spans(document, base, repair.edits)
        result.fixed = bom + apply_replacements(document.text, result.replacements)
    return result


def fix_mlir(data: bytes | str, path: str | None = None, *, embed_spirv: bool = False,
             sort_keys: bool = False, options: Options | None = None) -> FixResult:
    """Repair the VulkanCustomShader ops of a TOSA MLIR file in place: each op's
    ``implementation_attrs`` string gets the same minimal edits as a JSON file (escaped
    as MLIR escapes them), and the rest of the file stays byte for byte. An op whose
    repair is ambiguous, or whose attributes do not parse, is left as it is (and said so);
    the other ops are still repaired."""
    from ..sources.escapes import EscapeError, decode_mlir, mlir_offsets
    from ..sources.mlir_source import custom_op_attribute_strings
    from .emit import mlir_string

    original = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    result = FixResult(path, original, None)
    host_edits: list[tuple[int, int, str]] = []
    for start, end in custom_op_attribute_strings(original):
        try:
            inner = decode_mlir(original, start, end)
        except EscapeError:
            continue  # check reports the broken escape
        line = original.count("\n", 0, start) + 1
        one = fix_text(inner, path, embed_spirv=embed_spirv, sort_keys=sort_keys,
                       options=options)
        result.diagnostics += [d.located(None) for d in one.diagnostics]
        if one.fixed is None or not one.changed:  # a refused op stays as it is
            continue
        result.changes += [f"op at line {line}: {change}" for change in one.changes]
        if sort_keys:  # the whole attribute string is rewritten
            host_edits.append((start, end, mlir_string(one.fixed.rstrip("\n"))[1:-1]))
            continue
        offsets = mlir_offsets(original, start, end)
        # Quotes written as the string already writes them (" or ).
        literal = original[start:end]
        quote = "\\22" if "\\22" in literal and '\\"' not in literal else '\\"'
        host_edits += [(offsets.host(a), offsets.host_end(b),
                        mlir_string(new)[1:-1].replace('\\"', quote))
                       for a, b, new in one.replacements]
    result.replacements = host_edits
    result.fixed = apply_replacements(original, host_edits)
    return result


def apply_replacements(text: str, replacements: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(replacements, key=lambda r: (r[0], r[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


def edit_spans(document: JsonDocument, base: str, edits: list[Edit]
               ) -> list[tuple[int, int, str]]:
    """The text replacements that make ``edits`` to the object at ``base`` of
    ``document`` and touch nothing else."""
    text = document.text
    def spans(pointer: str) -> Span:
        found = document.span(pointer)
        assert found is not None  # edits name keys of the object at base
        return found

    original_name = {e.new: e.key for e in edits if e.kind == "rename"}
    replacements: list[tuple[int, int, str]] = []
    for edit in edits:
        if edit.kind == "rename":
            span = spans(pointer_join(base, edit.key))
            assert span.key_start is not None and span.key_end is not None
            replacements.append((span.key_start, span.key_end, _token(edit.new)))
        elif edit.kind == "value":
            span = spans(pointer_join(base, original_name.get(edit.key, edit.key)))
            replacements.append((span.value_start, span.value_end, _token(edit.new)))
        else:  # "add": a new member right after its anchor, laid out like the anchor
            assert edit.anchor is not None
            span = spans(pointer_join(base, original_name.get(edit.anchor, edit.anchor)))
            assert span.key_start is not None
            line_start = text.rfind("\n", 0, span.key_start) + 1
            indent = text[line_start:span.key_start]
            separator = f",\n{indent}" if not indent.strip() else ", "
            member = f"{separator}{_token(edit.key)}: {_token(edit.new)}"
            replacements.append((span.value_end, span.value_end, member))
    return replacements


def _token(value: Any) -> str:
    return _dumps(value)


def _dumps(value: Any, indent: int | None = None) -> str:
    """JSON with text as it is, but a lone surrogate (which has no UTF-8 form) as its
    escape, so that the file can always be written."""
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}",
                               json.dumps(value, indent=indent, ensure_ascii=False))


def fix_attributes(attrs: dict[str, Any], repair: _Repair | None = None, *,
                   embed_spirv: bool = False, sort_keys: bool = False,
                   options: Options | None = None) -> dict[str, Any] | None:
    """The repaired object (keys in canonical order with ``sort_keys``), or None when a
    repair is ambiguous or embedding failed; what was done, the edits that do it and what
    was wrong are recorded in ``repair``."""
    repair = repair or _Repair("", None)
    renamed = _rename_keys(attrs, repair)
    if renamed is None:
        return None
    _type_case(renamed, repair)
    _missing_types(renamed, repair)
    if embed_spirv and not _embed(renamed, repair, options or Options()):
        return None
    if not sort_keys:
        return renamed
    ordered = canonical_order(renamed)
    if list(ordered) != list(renamed):
        repair.changes.append("keys put in canonical order")
    return ordered


def _rename_keys(attrs: dict[str, Any], repair: _Repair) -> dict[str, Any] | None:
    targets: dict[str, str] = {}
    ambiguous = False
    for key in attrs:
        info = classify(key)
        if info.kind is not KeyKind.NEAR_MISS:
            continue
        pointer = pointer_join(repair.base, key)
        target = info.suggestion
        if target is None:
            repair.problem(FIX_AMBIGUOUS.at(
                pointer, f"`{key}`: {info.explanation}; there is no single key to rename it "
                         "to", hint="rename or remove it by hand", on_key=True))
            ambiguous = True
        elif target in attrs or target in targets.values():
            other = target if target in attrs else next(k for k, t in targets.items()
                                                        if t == target)
            repair.problem(FIX_AMBIGUOUS.at(
                pointer, f"`{key}` would become `{target}`, but `{other}` is already there",
                hint=f"decide by hand which value of `{target}` is right", on_key=True))
            ambiguous = True
        else:
            targets[key] = target
    if ambiguous:
        return None
    for key, target in targets.items():
        repair.changes.append(f"renamed `{key}` to `{target}`")
        repair.edits.append(Edit("rename", key, target))
    return {targets.get(key, key): value for key, value in attrs.items()}


def _type_case(attrs: dict[str, Any], repair: _Repair) -> None:
    for key, value in list(attrs.items()):
        info = classify(key)
        if info.kind is not KeyKind.RESOURCE or info.field != "type" or \
                not isinstance(value, str):
            continue
        canonical = RESOURCE_KINDS.get(value.strip().lower())
        if canonical is not None and canonical != value:
            attrs[key] = canonical
            repair.changes.append(f"`{key}`: {value!r} written {canonical!r}")
            repair.edits.append(Edit("value", key, canonical))


def _missing_types(attrs: dict[str, Any], repair: _Repair) -> None:
    for key, value in list(attrs.items()):
        info = classify(key)
        if info.kind is not KeyKind.RESOURCE or info.field != "vkdescriptortype" or \
                not isinstance(value, str):
            continue
        assert info.direction is not None and info.index is not None
        type_key = resource_key(info.direction, info.index, "type")
        descriptor = registry.canonical_descriptor_type(value)
        kind = KIND_OF_DESCRIPTOR.get(descriptor) if descriptor else None
        if kind is not None and type_key not in attrs:
            attrs[type_key] = kind
            repair.changes.append(f"added `{type_key}`: {kind!r} (from {descriptor})")
            repair.edits.append(Edit("add", type_key, kind, anchor=key))


def _embed(attrs: dict[str, Any], repair: _Repair, options: Options) -> bool:
    language, code = attrs.get("shader_language"), attrs.get("shader_code")
    if language not in ("GLSL", "HLSL") or not isinstance(code, str):
        return True
    entry = attrs.get("entry_point")
    request = CompileRequest(code, language, entry_point=entry if isinstance(entry, str) and
                             entry else "main",
                             code_pointer=pointer_join(repair.base, "shader_code"),
                             entry_pointer=pointer_join(repair.base, "entry_point"))
    result = compile_many([request], CompileOptions.from_options(options))[0]
    if result.spirv is None:
        for diagnostic in result.diagnostics:
            repair.problem(diagnostic)
        repair.problem(FIX_EMBED_FAILED.at(
            pointer_join(repair.base, "shader_code"),
            f"the {language} shader does not compile, so there is no SPIR-V to embed; the "
            "file is left as it is", hint="fix the shader errors above first"))
        return False
    attrs["shader_language"] = "SPIR-V"
    attrs["shader_code"] = base64.b64encode(result.spirv).decode("ascii")
    repair.edits += [Edit("value", "shader_language", "SPIR-V"),
                     Edit("value", "shader_code", attrs["shader_code"])]
    repair.changes.append(f"embedded the {language} shader as {len(result.spirv)} bytes of "
                          "SPIR-V")
    return True
