"""Is a JSON file an op document at all? A repository holds many JSON files that are not
ops (`package.json`, `tsconfig.json`, editor settings); a hook handed every `*.json`
must leave those alone instead of failing the commit on them.

An op document is an object (or a list of objects) with at least one key of an attribute
object or an op object, near misses included (`entryPoint`, `input_01_binding`,
`Input_0_binding`), so that a file with only misspelled keys is still checked.
"""

from __future__ import annotations

import json
import re
from functools import cache

from ..diagnostics import Severity, rule

_OP_KEY = (r"(?:(?:input|output|in|out)s?[_\-. ]?-?\d|entry[_\-. ]?point|workgroup"
           r"|shader[_\-. ]?(?:code|language)|push[_\-. ]?constant|domain[_\-. ]?name"
           r"|operator[_\-. ]?name|implementation[_\-. ]?attrs|is[_\-. ]?vkshader)")
_OP_KEY_RE = re.compile(_OP_KEY, re.IGNORECASE)


@cache
def _quoted_op_key() -> re.Pattern[str]:
    """In text that does not parse, or JSON of another shape (`[["entry_point",
    "main"]]`): a quoted string with an op key's name (compiled when first needed)."""
    return re.compile(rf'"{_OP_KEY}[^"]*"', re.IGNORECASE)


NOT_AN_OP_DOCUMENT = rule(
    "VKS935", "not-an-op-document", Severity.INFO,
    summary="A JSON file named on the command line holds no op: it was skipped.",
    why="Hooks and scripts pass every `*.json` of a repository; `package.json` or "
        "`tsconfig.json` are not ops and must not block a commit. The note says the file "
        "was seen and deliberately not checked. Folders walked by `check` skip such files "
        "without a note.",
    bad='tosa-vkshader check package.json   # {"name": "app", "version": "1.0.0"}',
    good="tosa-vkshader check ops/relu.json   # an attribute object or an op object",
)


def _is_op_object(value: object) -> bool:
    return isinstance(value, dict) and any(
        isinstance(key, str) and _OP_KEY_RE.match(key) for key in value)


def is_op_document(data: bytes | str) -> bool:
    """True when the JSON text holds an op (or might: text that does not parse counts when
    it has an op-like key, so that a broken op is still reported)."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return unparsed_is_op_document(text)
    return parsed_is_op_document(document, text)


def unparsed_is_op_document(text: str) -> bool:
    """For JSON text that does not parse: does it look like a broken op?"""
    return bool(_quoted_op_key().search(text)) or not text.strip()


def parsed_is_op_document(document: object, text: str) -> bool:
    """For JSON already parsed (``document``, read from ``text``): is it an op document?"""
    if isinstance(document, dict):
        return not document or _is_op_object(document)
    if isinstance(document, list) and all(isinstance(item, dict) for item in document):
        return not document or any(_is_op_object(item) for item in document)
    # Another shape: checked (and reported as malformed) when it mentions an op key.
    return not isinstance(document, list) or bool(_quoted_op_key().search(text))
