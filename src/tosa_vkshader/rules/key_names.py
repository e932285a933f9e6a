"""Rules about the keys themselves: required, misspelled, malformed, unknown (VKS11x)."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Severity, rename_key
from ..keys import REQUIRED_KEYS, KeyKind, KeyProblem
from ..rule_registry import rule
from ..view import AttributeView

MISSING_REQUIRED = rule(
    "VKS110",
    summary="`entry_point` or `workgroup_sizes` is missing.",
    why="The spec requires both; without them the converter cannot create the dispatch.",
    bad='{"entry_point": "main"}',
    good='{"entry_point": "main", "workgroup_sizes": [8, 8, 1]}',
)
LEADING_ZERO = rule(
    "VKS111",
    summary="A resource index is written with a leading zero (`input_01_binding`).",
    why="The spec forbids leading zeros. The reference schema lets such keys through as "
        "unknown properties and the converter then never reads them: the resource "
        "silently loses its binding.",
    bad='{"input_01_binding": 0}',
    good='{"input_1_binding": 0}',
)
MALFORMED_RESOURCE_KEY = rule(
    "VKS112",
    summary="A key looks like a resource key but does not follow "
            "`(input|output)_<index>_<field>` exactly (case, plural, separators, "
            "misspelled field).",
    why="Keys are matched literally. `Input_0_binding` or `input_0_bindng` are ignored by "
        "the converter, so the value never reaches the runtime.",
    bad='{"inputs_0_bindng": 0}',
    good='{"input_0_binding": 0}',
)
BAD_INDEX = rule(
    "VKS113",
    summary="A resource index is missing, negative, or not a decimal integer.",
    why="Indices are non-negative decimal integers that number the op's operands and "
        "results; anything else cannot be matched to a tensor.",
    bad='{"input_-1_binding": 0, "input_0x1_binding": 1}',
    good='{"input_0_binding": 0, "input_1_binding": 1}',
)
INDEX_TOO_LARGE = rule(
    "VKS107",
    summary="A resource index has more than 19 digits.",
    why="Indices number the op's operands and results, 0..n-1; the converter reads only "
        "those, so an index with 20 or more digits never describes a tensor. The checker "
        "reports it without ever treating it as a number.",
    bad='{"input_123456789012345678901234567890_binding": 0}',
    good='{"input_1_binding": 0}',
)
MISSPELLED_KEY = rule(
    "VKS114",
    summary="A top-level key is a near miss of a known key (`entrypoint`, `workgroup_size`).",
    why="Unknown keys are kept for forward compatibility, so a misspelled optional key "
        "such as `push_constant` would be ignored without a word.",
    bad='{"entryPoint": "main"}',
    good='{"entry_point": "main"}',
)
UNKNOWN_KEY = rule(
    "VKS115",
    summary="A key that the format does not define and that resembles no known key.",
    why="Unknown keys are allowed (forward compatibility) but nothing reads them; this "
        "info helps spot stale or tool-specific keys. Silence it with `ignore = "
        '["VKS115"]`.',
    bad='{"author": "me"}',
    good="(remove the key, or ignore VKS115 in [tool.tosa-vkshader])",
)
UNKNOWN_RESOURCE_FIELD = rule(
    "VKS116",
    summary="A well-formed resource key with a field the format does not define "
            "(`input_0_stride`).",
    why="It may be a field from a newer version of the format, or a typo nobody reads.",
    bad='{"input_0_stride": 16}',
    good="(fields are vkformat, vkdescriptortype, type, binding, descriptorset, sampler)",
)

_PROBLEM_RULES = {
    KeyProblem.LEADING_ZERO: LEADING_ZERO,
    KeyProblem.BAD_INDEX: BAD_INDEX,
    KeyProblem.MALFORMED_RESOURCE: MALFORMED_RESOURCE_KEY,
    KeyProblem.TOP_LEVEL_TYPO: MISSPELLED_KEY,
    KeyProblem.INDEX_TOO_LARGE: INDEX_TOO_LARGE,
}
# The codes of near-miss keys: each finding carries the rename that repairs it when the
# one right name is known and free; one without it is a repair only a person can decide.
NEAR_MISS_CODES = frozenset(found.code for found in _PROBLEM_RULES.values())


# Keys the key rules have nothing to say about.
_WELL_FORMED = frozenset((KeyKind.TOP_LEVEL, KeyKind.EXTENSION, KeyKind.RESOURCE))


def check_keys(view: AttributeView) -> Iterator[Diagnostic]:
    attrs = view.attrs
    wanted: dict[str, int] | None = None  # how many near misses suggest each key
    for key, info in view.keys.items():
        if info.kind in _WELL_FORMED:
            continue
        pointer = view.pointer(key)
        if info.kind is KeyKind.NEAR_MISS:
            hint = None
            message = f"key `{key}`: {info.explanation}"
            severity = None
            if info.suggestion:
                beside = info.suggestion in attrs
                also = " (that key is also present: keep one)" if beside else ""
                hint = f"did you mean `{info.suggestion}`?{also}"
                if beside and info.problem is not KeyProblem.LEADING_ZERO:
                    # The right key is there: the converter ignores this one, nothing is
                    # lost, so it is a leftover to clean up rather than a broken op.
                    severity = Severity.WARNING
                    message += (f"; `{info.suggestion}` is also present, and the converter "
                                "ignores this key")
            if info.problem is KeyProblem.LEADING_ZERO:
                message += ("; the spec forbids leading zeros, and the converter ignores the "
                            "key, so its value never reaches the runtime")
            # `fix` renames it when the new name is free and wanted by no other key.
            if wanted is None and info.suggestion:
                wanted = {}
                for other in view.keys.values():
                    if other.kind is KeyKind.NEAR_MISS and other.suggestion:
                        wanted[other.suggestion] = wanted.get(other.suggestion, 0) + 1
            mechanical = info.suggestion and info.suggestion not in attrs and \
                wanted is not None and wanted[info.suggestion] == 1
            assert info.problem is not None  # (every near miss says what is wrong)
            yield _PROBLEM_RULES[info.problem].at(
                pointer, message, hint=hint, on_key=True, severity=severity,
                fix=rename_key(pointer, info.suggestion)
                if mechanical and info.suggestion is not None else None)
        elif info.kind is KeyKind.RESOURCE_UNKNOWN_FIELD:
            yield UNKNOWN_RESOURCE_FIELD.at(
                pointer, f"key `{key}`: `{info.field}` is not a resource field",
                hint="remove it: the converter reads only vkformat, vkdescriptortype, type, "
                     "binding, descriptorset and sampler", on_key=True)
        elif info.kind is KeyKind.UNKNOWN:
            yield UNKNOWN_KEY.at(pointer, f"unknown key `{key}` is kept but not read by the "
                                          "converter", on_key=True)
    for key in REQUIRED_KEYS:
        if key not in attrs and not any(info.suggestion == key for info in view.keys.values()):
            yield missing_required(view, key, _required_hint(view, key))


def missing_required(view: AttributeView, key: str, hint: str | None) -> Diagnostic:
    """VKS110 for ``key`` (the cross-check restates it with the module's entry point)."""
    return MISSING_REQUIRED.at(view.base, f"required key `{key}` is missing", hint=hint)


def _required_hint(view: AttributeView, key: str) -> str | None:
    if key == "workgroup_sizes":
        return 'add `"workgroup_sizes": [x, y, z]`, e.g. [8, 8, 1]'
    language = view.attrs.get("shader_language")
    if language in (None, "", "GLSL"):
        return 'add `"entry_point": "main"` (GLSL entry points are always `main`)'
    # HLSL and SPIR-V name their entry points: the shader stage says which (VKS307, or
    # this rule again with the module's entry point).
    return None
