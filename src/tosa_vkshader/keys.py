"""The key grammar of the attribute object.

Every key is classified once (results are cached: real files repeat the same keys):

* a known top-level key (``entry_point``, ``workgroup_sizes``, ...),
* an extension key seen in real payloads (``is_vkshader``),
* a resource key ``(input|output)_<index>_<field>``, index without leading zeros,
* a resource key with a valid prefix but a field nobody knows (kept: forward compatible),
* a near miss of one of the above, with the corrected key when it is unambiguous,
* or an unknown key, kept for forward compatibility.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

TOP_LEVEL_KEYS: dict[str, str] = {
    "entry_point": "Name of the shader entry point.",
    "workgroup_sizes": "Workgroup size [x, y, z]: three integers >= 1.",
    "shader_language": 'Language of shader_code: "", "SPIR-V", "GLSL" or "HLSL".',
    "shader_code": "Shader source text, or base64 SPIR-V when shader_language is SPIR-V.",
    "push_constants": 'Push-constant layout as "name: size, name: size" (sizes in bytes).',
}
REQUIRED_KEYS = ("entry_point", "workgroup_sizes")
EXTENSION_KEYS: dict[str, str] = {
    "is_vkshader": "Marker written by some producers; carries no meaning for the runtime.",
}

RESOURCE_FIELDS: dict[str, str] = {
    "vkformat": "Vulkan format (VK_FORMAT_*) of the resource's elements or texels.",
    "vkdescriptortype": "Vulkan descriptor type (VK_DESCRIPTOR_TYPE_*).",
    "type": 'Logical resource type: "Tensor", "Image" or "Buffer".',
    "binding": "Binding number in the descriptor set (integer >= 0).",
    "descriptorset": "Descriptor set index (integer >= 0).",
    "sampler": "Sampler state for a sampled image: five Vulkan enum fields.",
}
# The fields the reference converter needs for every resource index.
REQUIRED_RESOURCE_FIELDS = ("binding", "descriptorset", "vkdescriptortype", "vkformat")

DIRECTIONS = ("input", "output")
INDEX_PATTERN = r"(0|[1-9][0-9]*)"
RESOURCE_PREFIX_PATTERN = rf"^(input|output)_{INDEX_PATTERN}_"
RESOURCE_KEY_RE = re.compile(
    rf"^(input|output)_{INDEX_PATTERN}_({'|'.join(RESOURCE_FIELDS)})$"
)
# No op has 10**19 operands; longer indices are reported, never turned into numbers that
# a rule could loop over (and Python refuses to convert more than 4300 digits anyway).
MAX_INDEX_DIGITS = 19
# Keys longer than this are classified without being cached: a cache of hostile keys
# would keep megabytes alive in a long-running server.
_MAX_CACHED_KEY = 200
# A valid prefix followed by any lower-case field name: a future field, not a typo.
RESOURCE_ANY_FIELD_RE = re.compile(rf"^(input|output)_{INDEX_PATTERN}_([a-z][a-z0-9_]*)$")

# Words people use for the real field and key names.
_FIELD_SYNONYMS = {
    "format": "vkformat",
    "vk_format": "vkformat",
    "descriptortype": "vkdescriptortype",
    "descriptor_type": "vkdescriptortype",
    "vkdescriptor_type": "vkdescriptortype",
    "set": "descriptorset",
    "descriptor_set": "descriptorset",
    "desc_set": "descriptorset",
    "bind": "binding",
    "resource_type": "type",
    "kind": "type",
    "sampler_config": "sampler",
}
_DIRECTION_SYNONYMS = {"in": "input", "out": "output", "inputs": "input", "outputs": "output"}
_TOP_LEVEL_SYNONYMS = {
    "entrypoint": "entry_point",
    "entry": "entry_point",
    "workgroup_size": "workgroup_sizes",
    "workgroupsize": "workgroup_sizes",
    "local_size": "workgroup_sizes",
    "localsize": "workgroup_sizes",
    "language": "shader_language",
    "shaderlanguage": "shader_language",
    "lang": "shader_language",
    "code": "shader_code",
    "shadercode": "shader_code",
    "source": "shader_code",
    "spirv": "shader_code",
    "push_constant": "push_constants",
    "pushconstants": "push_constants",
    "pushconstant": "push_constants",
}
_SEPARATORS_RE = re.compile(r"[_\-. ]")
_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


class KeyKind(enum.Enum):
    TOP_LEVEL = "top-level"
    EXTENSION = "extension"
    RESOURCE = "resource"
    RESOURCE_UNKNOWN_FIELD = "resource-unknown-field"
    NEAR_MISS = "near-miss"
    UNKNOWN = "unknown"


class KeyProblem(enum.Enum):
    LEADING_ZERO = "leading-zero"
    BAD_INDEX = "bad-index"
    MALFORMED_RESOURCE = "malformed-resource"
    TOP_LEVEL_TYPO = "top-level-typo"
    INDEX_TOO_LARGE = "index-too-large"


@dataclass(frozen=True, slots=True)
class KeyInfo:
    key: str
    kind: KeyKind
    direction: str | None = None
    index: int | None = None
    field: str | None = None
    problem: KeyProblem | None = None
    explanation: str | None = None
    suggestion: str | None = None


def split_nulls(attrs: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The attributes without their null values, and the keys that were null.

    The reference converter reads ``null`` as "absent" for every key it knows except
    ``input_N_sampler`` (whose lookup does not treat null as absent), so a required key
    set to null is missing and an optional one is simply not there."""
    nulls = tuple(key for key, value in attrs.items()
                  if value is None and classify(key).field != "sampler")
    if not nulls:
        return attrs, ()
    return {k: v for k, v in attrs.items() if k not in nulls}, nulls


def resource_key(direction: str, index: int, field: str) -> str:
    return f"{direction}_{index}_{field}"


def classify(key: str) -> KeyInfo:
    if len(key) > _MAX_CACHED_KEY:
        return _classify(key)
    return _classify_cached(key)


def _too_large(key: str, direction: str, field: str, index_text: str) -> KeyInfo:
    return KeyInfo(
        key, KeyKind.NEAR_MISS, direction, None, field, KeyProblem.INDEX_TOO_LARGE,
        f"the index has {len(index_text)} digits; indices number the op's operands and "
        f"results and have at most {MAX_INDEX_DIGITS}")


def _classify(key: str) -> KeyInfo:
    if key in TOP_LEVEL_KEYS:
        return KeyInfo(key, KeyKind.TOP_LEVEL)
    if key in EXTENSION_KEYS:
        return KeyInfo(key, KeyKind.EXTENSION)
    match = RESOURCE_KEY_RE.match(key)
    if match:
        if len(match[2]) > MAX_INDEX_DIGITS:
            return _too_large(key, match[1], match[3], match[2])
        return KeyInfo(key, KeyKind.RESOURCE, match[1], int(match[2]), match[3])
    resource_miss = _resource_near_miss(key)
    if resource_miss is not None:
        return resource_miss
    match = RESOURCE_ANY_FIELD_RE.match(key)
    if match:
        if len(match[2]) > MAX_INDEX_DIGITS:
            return _too_large(key, match[1], match[3], match[2])
        return KeyInfo(key, KeyKind.RESOURCE_UNKNOWN_FIELD, match[1], int(match[2]), match[3])
    top_miss = _top_level_near_miss(key)
    if top_miss is not None:
        return top_miss
    return KeyInfo(key, KeyKind.UNKNOWN)


_classify_cached = lru_cache(maxsize=4096)(_classify)


def _normalise_direction(token: str) -> tuple[str | None, list[str]]:
    """Return the direction a token means (if any) and what is wrong with its spelling."""
    problems: list[str] = []
    lowered = token.lower()
    if lowered != token:
        problems.append(f"`{token}` must be lower case")
    if lowered in DIRECTIONS:
        return lowered, problems
    if lowered in _DIRECTION_SYNONYMS:
        direction = _DIRECTION_SYNONYMS[lowered]
        problems.append(f"`{lowered}` is not a direction; the grammar uses `{direction}`")
        return direction, problems
    import difflib  # only for keys that are not already known

    close = difflib.get_close_matches(lowered, DIRECTIONS, n=1, cutoff=0.7)
    if close:
        problems.append(f"`{token}` is misspelled")
        return close[0], problems
    return None, problems


def _normalise_field(tokens: list[str]) -> tuple[str | None, list[str]]:
    raw = "_".join(tokens)
    lowered = raw.lower()
    problems: list[str] = []
    if lowered != raw:
        problems.append(f"field `{raw}` must be lower case")
    for candidate in (lowered, lowered.replace("_", "")):
        if candidate in RESOURCE_FIELDS:
            if candidate != lowered:
                problems.append(f"field `{raw}` is written `{candidate}`")
            return candidate, problems
    if lowered in _FIELD_SYNONYMS:
        field = _FIELD_SYNONYMS[lowered]
        problems.append(f"the field is called `{field}`, not `{raw}`")
        return field, problems
    import difflib

    close = difflib.get_close_matches(lowered.replace("_", ""), RESOURCE_FIELDS, n=1, cutoff=0.75)
    if close:
        problems.append(f"field `{raw}` is misspelled")
        return close[0], problems
    return None, problems


# Anything that starts like a number (Unicode digits included: `\d` in the reference
# schema's patterns matches them), or nothing at all.
_INDEX_LIKE_RE = re.compile(r"^(?:-?\d\w*|)$")
_HEX_INDEX_RE = re.compile(r"0[xX][0-9a-fA-F]+")


def _resource_near_miss(key: str) -> KeyInfo | None:
    tokens = _SEPARATORS_RE.split(key)
    head = tokens[0]
    # `input0_binding`: index glued to the direction.
    glued = re.match(r"^([A-Za-z]+?)([0-9]+)$", head)
    if glued and len(tokens) >= 2:
        tokens = [glued[1], glued[2], *tokens[1:]]
    if len(tokens) == 4 and tokens[1] == "" and tokens[2].startswith(tuple("0123456789")):
        tokens = [tokens[0], "-" + tokens[2], tokens[3]]  # input_-1_binding
    if len(tokens) < 3 or not _INDEX_LIKE_RE.match(tokens[1]):
        return None
    direction, problems = _normalise_direction(tokens[0])
    if direction is None:
        return None
    field, field_problems = _normalise_field(tokens[2:])
    if field is None:
        return None
    problems += field_problems
    if glued:
        problems.append("the index needs an underscore before it")
    if "-" in key or "." in key or " " in key:
        problems.append("parts are separated by single underscores")

    index_text = tokens[1]
    problem = KeyProblem.MALFORMED_RESOURCE
    index: int | None = None
    if index_text == "":
        problem = KeyProblem.BAD_INDEX
        problems.insert(0, "the index is missing")
    elif index_text.startswith("-"):
        problem = KeyProblem.BAD_INDEX
        problems.insert(0, f"index {index_text} is negative; indices start at 0")
    elif _HEX_INDEX_RE.fullmatch(index_text):
        digits = index_text[2:].lstrip("0")
        if len(digits) > MAX_INDEX_DIGITS:
            return _too_large(key, direction, field, index_text)
        problem = KeyProblem.BAD_INDEX
        index = int(index_text, 16)
        problems.insert(0, f"index `{index_text}` is hexadecimal; write it in decimal ({index})")
    elif not (index_text.isascii() and index_text.isdigit()):
        problem = KeyProblem.BAD_INDEX
        problems.insert(0, f"index `{index_text}` is not a decimal integer")
    elif len(index_text.lstrip("0")) > MAX_INDEX_DIGITS:
        return _too_large(key, direction, field, index_text)
    else:
        index = int(index_text)
        if index_text != str(index):
            problem = KeyProblem.LEADING_ZERO
            problems.insert(0, f"index `{index_text}` has a leading zero")

    suggestion = resource_key(direction, index, field) if index is not None else None
    if not problems:  # pragma: no cover - a key with no problem matches RESOURCE_KEY_RE
        return None
    return KeyInfo(
        key,
        KeyKind.NEAR_MISS,
        direction,
        index,
        field,
        problem,
        "; ".join(problems),
        suggestion,
    )


def _top_level_near_miss(key: str) -> KeyInfo | None:
    snake = _CAMEL_RE.sub("_", key).lower().strip("_")
    flat = snake.replace("_", "").replace("-", "")
    known = {k.replace("_", ""): k for k in (*TOP_LEVEL_KEYS, *EXTENSION_KEYS)}
    target = (
        known.get(flat)
        or _TOP_LEVEL_SYNONYMS.get(snake)
        or _TOP_LEVEL_SYNONYMS.get(flat)
    )
    if target is None:
        import difflib

        close = difflib.get_close_matches(flat, list(known), n=1, cutoff=0.85)
        target = known[close[0]] if close else None
    if target is None or target == key:
        return None
    return KeyInfo(
        key,
        KeyKind.NEAR_MISS,
        problem=KeyProblem.TOP_LEVEL_TYPO,
        explanation=f"`{key}` is not a key of the format",
        suggestion=target,
    )
