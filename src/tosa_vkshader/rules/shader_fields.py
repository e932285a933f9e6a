"""Entry point, workgroup shape, shader language and code (VKS201-VKS208)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, InnerPosition
from ..rule_registry import rule
from ..spirv_base64 import HEADER_BYTES, decode_spirv, has_magic
from ..view import AttributeView
from .value_types import describe

if TYPE_CHECKING:
    from ..shader import Shader

SHADER_LANGUAGES = ("", "SPIR-V", "GLSL", "HLSL")
# Vulkan's guaranteed minimums (maxComputeWorkGroupSize, ...Invocations, ...Count).
GUARANTEED_LOCAL_SIZE = (128, 128, 64)
GUARANTEED_INVOCATIONS = 128
GUARANTEED_GROUP_COUNT = 65535
MAX_UINT32 = 2**32 - 1
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BASE64_ALPHABET = re.compile(r"[A-Za-z0-9+/=]*")

INVALID_ENTRY_POINT = rule(
    "VKS201",
    summary="`entry_point` is empty or not an identifier.",
    why="The runtime looks the entry point up by name in the shader module; a name with "
        "spaces, a leading digit or nothing at all can never match.",
    bad='{"entry_point": "main()"}',
    good='{"entry_point": "main"}',
)
BAD_WORKGROUP_SHAPE = rule(
    "VKS202",
    summary="`workgroup_sizes` is not exactly three integers >= 1.",
    why="The value becomes a three-dimensional size; a missing dimension, a zero, a "
        "boolean or a float cannot be dispatched.",
    bad='{"workgroup_sizes": [8, 8]}',
    good='{"workgroup_sizes": [8, 8, 1]}',
)
WORKGROUP_OVER_LIMIT = rule(
    "VKS203",
    summary="`workgroup_sizes`, or the shader's local size, exceeds what every Vulkan "
            "device guarantees.",
    why="Vulkan guarantees a local size of at least 128 x 128 x 64 with 128 invocations in "
        "total, and 65535 workgroups per dimension. Larger values work only on devices "
        "that report higher limits. Not reported when target devices are configured: "
        "VKS702, VKS703 and VKS706 then check each device's own limits.",
    bad='{"workgroup_sizes": [256, 1, 1]}',
    good='{"workgroup_sizes": [128, 1, 1]}',
)
UNKNOWN_LANGUAGE = rule(
    "VKS204",
    summary='`shader_language` is not one of "", "SPIR-V", "GLSL", "HLSL".',
    why="The converter selects the compiler from this exact string.",
    bad='{"shader_language": "glsl"}',
    good='{"shader_language": "GLSL"}',
)
LANGUAGE_CODE_PAIRING = rule(
    "VKS205",
    summary="`shader_language` and `shader_code` must both be set or both be unset.",
    why="The reference converter refuses an op that has one without the other: code "
        "without a language cannot be compiled, a language without code has nothing to "
        "compile.",
    bad='{"shader_language": "GLSL"}',
    good='{"shader_language": "GLSL", "shader_code": "void main() { }"}',
)
WORKGROUP_TRUNCATED = rule(
    "VKS241",
    summary="A `workgroup_sizes` value does not fit in 32 bits (>= 2^32).",
    why="The reference converter stores each value as uint32 without a check: 2^32 becomes "
        "0 and 2^32+1 becomes 1, so the op dispatches something else than written, "
        "whichever way `workgroup_sizes` is read.",
    bad='{"workgroup_sizes": [4294967297, 1, 1]}',
    good='{"workgroup_sizes": [1, 1, 1]}',
)
EMPTY_LANGUAGE = rule(
    "VKS242",
    summary='`shader_language` is `""` while `shader_code` is absent or empty.',
    why='The spec lists `""` as "unspecified", but the reference converter treats any '
        "present, non-null `shader_language` as set: with no code it refuses the op "
        '("must both be set"), and with empty code it refuses the code. An op without a '
        "shader leaves both keys out.",
    bad='{"entry_point": "main", "workgroup_sizes": [1, 1, 1], "shader_language": ""}',
    good='{"entry_point": "main", "workgroup_sizes": [1, 1, 1]}',
)
SPIRV_NOT_BASE64 = rule(
    "VKS206",
    summary="SPIR-V `shader_code` is not strict base64.",
    why="The converter decodes it with a strict base64 decoder; whitespace, URL-safe "
        "characters or missing padding break the module.",
    bad='{"shader_language": "SPIR-V", "shader_code": "AwIjBA AAAQ=="}',
    good='{"shader_language": "SPIR-V", "shader_code": "AwIjBAAAAQA..."}',
)
SPIRV_LENGTH = rule(
    "VKS207",
    summary="Decoded SPIR-V is not a whole number of 32-bit words.",
    why="SPIR-V is a stream of 32-bit words; the converter refuses a byte length that is "
        "not a multiple of 4.",
    bad='{"shader_language": "SPIR-V", "shader_code": "AwIj"}',
    good="(the base64 of the complete .spv file)",
)
SPIRV_HEADER = rule(
    "VKS208",
    summary="Decoded SPIR-V has no complete 5-word header with the magic number.",
    why="Every SPIR-V module starts with magic 0x07230203, version, generator, bound and "
        "schema; without them it is not SPIR-V (often GLSL text was base64-encoded by "
        "mistake).",
    bad="(base64 of a GLSL file with shader_language SPIR-V)",
    good="(base64 of the .spv produced by glslc)",
)


def check_entry_point(view: AttributeView) -> Iterator[Diagnostic]:
    value = view.attrs.get("entry_point")
    if not isinstance(value, str):
        return
    if not _IDENTIFIER.fullmatch(value):
        stripped = re.sub(r"\(.*$", "", value.strip())
        hint = (f'use "{stripped}"' if _IDENTIFIER.fullmatch(stripped) else
                "use the name of the shader's entry function, e.g. \"main\"")
        what = "is empty" if value == "" else "is not an identifier"
        yield INVALID_ENTRY_POINT.at(view.pointer("entry_point"),
                                     f"`entry_point` {describe(value)} {what}", hint=hint)


def local_size_over_limits(sizes: list[int]) -> list[str]:
    """How a local size exceeds Vulkan's guaranteed limits (empty when it does not)."""
    over = [f"{'xyz'[i]}={s} > {limit}" for i, (s, limit) in
            enumerate(zip(sizes, GUARANTEED_LOCAL_SIZE, strict=True)) if s > limit]
    total = sizes[0] * sizes[1] * sizes[2]
    if total > GUARANTEED_INVOCATIONS:
        over.append(f"{total} invocations > {GUARANTEED_INVOCATIONS}")
    return over


def _three_dimensions(sizes: list) -> list[int] | None:
    """[x, y] -> [x, y, 1]; [x, y, z, 1] -> [x, y, z]: the 1s of unused dimensions added or
    dropped. None when that is not what the list looks like."""
    if not sizes or not all(type(s) is int and s >= 1 for s in sizes):
        return None
    if len(sizes) < 3:
        return sizes + [1] * (3 - len(sizes))
    return sizes[:3] if all(s == 1 for s in sizes[3:]) else None


def _dimension_hint(size: object) -> str | None:
    """What a workgroup_sizes element that is not an integer >= 1 was likely meant to be."""
    if isinstance(size, float) and size.is_integer() and size >= 1:
        return f"write {int(size)}"
    if isinstance(size, str) and size.strip().isascii() and size.strip().isdigit() \
            and int(size) >= 1:
        return f"write {int(size)} without quotes"
    if type(size) is int and size == 0:
        return "use 1 for a dimension the dispatch does not use"
    return None


def check_workgroup_sizes(view: AttributeView) -> Iterator[Diagnostic]:
    sizes = view.attrs.get("workgroup_sizes")
    if not isinstance(sizes, list):
        return
    pointer = view.pointer("workgroup_sizes")
    if len(sizes) != 3:
        shape = _three_dimensions(sizes)
        yield BAD_WORKGROUP_SHAPE.at(
            pointer, f"`workgroup_sizes` has {len(sizes)} element(s); it needs exactly 3",
            hint=f"use {shape}" if shape else None)
    good = True
    for position, size in enumerate(sizes[:3]):
        if type(size) is not int or size < 1:
            good = False
            hint = _dimension_hint(size)
            zero = (" (stricter than the converter, which writes 0: the spec requires >= 1 "
                    "and the runtime would dispatch nothing)" if type(size) is int
                    and size == 0 else "")
            yield BAD_WORKGROUP_SHAPE.at(
                f"{pointer}/{position}",
                f"`workgroup_sizes[{position}]` is {describe(size)}; it must be an integer "
                f">= 1{zero}", hint=hint)
    if not good or len(sizes) != 3:
        return
    for position, size in enumerate(sizes):
        if size > MAX_UINT32:
            good = False
            yield WORKGROUP_TRUNCATED.at(
                f"{pointer}/{position}", f"`workgroup_sizes[{position}]` is {size}, beyond "
                f"uint32 (below 4294967296): the reference converter stores {size % 2**32} "
                "without a word")
    if not good:
        return
    if view.options.target_device:
        return  # the target-device rules (VKS702, VKS703, VKS706) check each device's limits
    if view.options.workgroup_semantics == "dispatch":
        if any(size > GUARANTEED_GROUP_COUNT for size in sizes):
            yield WORKGROUP_OVER_LIMIT.at(
                pointer, f"`workgroup_sizes` {sizes} read as a dispatch shape exceeds the "
                f"guaranteed {GUARANTEED_GROUP_COUNT} workgroups per dimension")
        return
    over = local_size_over_limits(sizes)
    if over:
        yield WORKGROUP_OVER_LIMIT.at(
            pointer, f"`workgroup_sizes` {sizes} exceeds Vulkan's guaranteed limits "
            f"({'; '.join(over)})",
            hint="keep x*y*z <= 128 (e.g. [8, 8, 1] or [128, 1, 1]) unless every target "
                 "device reports larger maxComputeWorkGroup* limits")


_LANGUAGE_SPELLINGS = {"SPIRV": "SPIR-V", "SPV": "SPIR-V", "SPIR_V": "SPIR-V"}


def check_language_and_code(view: AttributeView) -> Iterator[Diagnostic]:
    attrs = view.attrs
    language = attrs.get("shader_language")
    code = attrs.get("shader_code")
    if isinstance(language, str) and language not in SHADER_LANGUAGES:
        upper = language.strip().upper()
        fixed = upper if upper in SHADER_LANGUAGES else _LANGUAGE_SPELLINGS.get(upper)
        yield UNKNOWN_LANGUAGE.at(
            view.pointer("shader_language"), f"`shader_language` {describe(language)} is not "
            'one of "", "SPIR-V", "GLSL", "HLSL"',
            hint=f'did you mean "{fixed}"?' if fixed else None)
        return
    has_language = isinstance(language, str) and language != ""
    has_code = isinstance(code, str) and code != ""
    if language == "" and not has_code:
        what = 'is ""' if "shader_code" in attrs else "is absent"
        yield EMPTY_LANGUAGE.at(
            view.pointer("shader_language"),
            f'`shader_language` is "" and `shader_code` {what}: the spec calls "" '
            '"unspecified", but the reference converter treats any present '
            "`shader_language` as set and refuses the op",
            hint="leave out both `shader_language` and `shader_code` for an op without a "
                 "shader")
        return
    if "shader_language" in attrs and not isinstance(language, str):
        return
    if "shader_code" in attrs and not isinstance(code, str):
        return
    if has_language and not has_code:
        what = "is empty" if "shader_code" in attrs else "is missing"
        yield LANGUAGE_CODE_PAIRING.at(
            view.pointer("shader_code") if "shader_code" in attrs else view.pointer(),
            f'`shader_language` is "{language}" but `shader_code` {what}'
            + (" (the converter accepts empty code; the runtime has nothing to compile)"
               if "shader_code" in attrs else ""),
            hint="add the shader to `shader_code`, or leave out `shader_language`")
    elif isinstance(code, str) and has_code and not has_language:
        guess = "SPIR-V" if code.startswith("AwIjB") else "GLSL"
        yield LANGUAGE_CODE_PAIRING.at(
            view.pointer("shader_language") if "shader_language" in attrs else view.pointer(),
            "`shader_code` is set but `shader_language` is "
            + ("empty" if "shader_language" in attrs else "missing"),
            hint=f'set `"shader_language": "{guess}"`')
    elif code == "" and "shader_language" not in attrs:
        yield LANGUAGE_CODE_PAIRING.at(
            view.pointer("shader_code"), '`shader_code` is "" but `shader_language` is '
            "missing: the reference converter refuses code without a language",
            hint="leave out `shader_code`, or set `shader_language` and the shader")
    elif language == "SPIR-V" and isinstance(code, str) and has_code:
        yield from _check_spirv_blob(view, code)


def _base64_prefix(code: str) -> int:
    """How many characters at the start of ``code`` are of the base64 alphabet."""
    found = _BASE64_ALPHABET.match(code)
    return found.end() if found is not None else 0  # (the pattern matches "" at worst)


def _check_spirv_blob(view: AttributeView, code: str) -> Iterator[Diagnostic]:
    pointer = view.pointer("shader_code")
    data = decode_spirv(code)
    if data is None:
        valid_prefix = _base64_prefix(code)
        if valid_prefix < len(code):
            bad = code[valid_prefix]
            line = code.count("\n", 0, valid_prefix) + 1
            column = valid_prefix - (code.rfind("\n", 0, valid_prefix) + 1) + 1
            hint = ("remove whitespace and line breaks from the base64 text"
                    if bad.isspace() else
                    "use the standard alphabet (+ and /), not the URL-safe one (- and _)"
                    if bad in "-_" else "encode the .spv file with `base64 -w0`")
            yield SPIRV_NOT_BASE64.at(
                pointer, f"`shader_code` is not base64: character {bad!r} at position "
                f"{valid_prefix + 1}", hint=hint, inner=InnerPosition(line, column))
        elif code.endswith("=") and len(code.rstrip("=")) % 4 == 0:
            yield SPIRV_NOT_BASE64.at(
                pointer, f"`shader_code` ends in {len(code) - len(code.rstrip('='))} `=` "
                "after a complete group of four characters; the converter's base64 decoder "
                "refuses padding that pads nothing",
                hint="remove the trailing `=`")
        else:
            yield SPIRV_NOT_BASE64.at(
                pointer, f"`shader_code` is not valid base64 ({len(code)} characters; "
                "padding is wrong or `=` appears in the middle)",
                hint="encode the .spv file with `base64 -w0`")
        return
    if len(data) % 4:
        yield SPIRV_LENGTH.at(pointer, f"decoded SPIR-V is {len(data)} bytes, not a multiple "
                              "of 4 (the base64 text was probably cut short)",
                              hint="encode the whole .spv file again with `base64 -w0`")
        return
    if len(data) < HEADER_BYTES:
        yield SPIRV_HEADER.at(pointer, f"decoded SPIR-V is {len(data)} bytes; a module needs "
                              "at least the 20-byte header")
        return
    if not has_magic(data):
        magic_le = int.from_bytes(data[:4], "little")
        looks_like_text = all(32 <= b < 127 or b in (9, 10, 13) for b in data[:64])
        yield SPIRV_HEADER.at(
            pointer, f"decoded SPIR-V starts with 0x{magic_le:08x}, not the magic number "
            "0x07230203",
            hint='this looks like shader source: set "shader_language" to "GLSL" or "HLSL" '
                 "and put the text in shader_code" if looks_like_text else
                 "base64-encode the .spv file produced by the compiler")


def check_local_size_limits(view: AttributeView, shader: Shader) -> Iterator[Diagnostic]:
    """Under the runtime's reading workgroup_sizes is a workgroup count, so Vulkan's
    guaranteed local-size limits apply to the shader's own local size."""
    from ..shader.places import places_for

    local = shader.reflection.local_size if shader.reflection is not None else None
    if view.options.workgroup_semantics != "dispatch" or local is None \
            or None in local.values or view.options.target_device:
        return  # (with target devices, VKS702/VKS703 check each device's own limits)
    over = local_size_over_limits([v for v in local.values if v is not None])
    if over:
        yield WORKGROUP_OVER_LIMIT.at(
            view.pointer("shader_code"),
            f"the shader's local size {local.describe()} exceeds Vulkan's guaranteed limits "
            f"({'; '.join(over)})",
            hint="keep x*y*z <= 128 (e.g. 8 x 8 x 1 or 128 x 1 x 1) unless every target "
                 "device reports larger maxComputeWorkGroup* limits",
            shader_place=places_for(shader, view.attrs).local_size())
