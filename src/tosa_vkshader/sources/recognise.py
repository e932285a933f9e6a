"""Is a JSON file an op document at all? A repository holds many JSON files that are not
ops (`package.json`, `tsconfig.json`, editor settings); a hook handed every `*.json`
must leave those alone instead of failing the commit on them. One decision, the same at
every front door (``check``, the API, the hook, the web, ``fix``, ``compile``):

1. **By name**: files that are recognisably someone else's (:data:`NOT_OURS_BY_NAME`:
   npm's and TypeScript's files, JSON-with-comments configuration, editor folders) are
   skipped unread.
2. **JSON that does not parse is checked** (VKS100/VKS101 and friends), whatever it
   looks like: a corrupted op must never pass as "not an op". Invalid UTF-8, a trailing
   comma, a truncated file, an empty file: all errors.
3. **By content, parsed JSON only**: an object (or a list of objects) without any key of
   an attribute object or an op object, near misses included (`entryPoint`,
   `input_01_binding`, `Input_0_binding`, `binding`, `vkformat`, ...), is skipped; so is
   a list of scalars that mentions no such key. Anything else is checked.
"""

from __future__ import annotations

import fnmatch
import re
from functools import cache
from typing import TYPE_CHECKING

from ..rule_registry import rule

if TYPE_CHECKING:
    from .jsontext import JsonDocument

# Files of other tools, by name (matched against the file name, and for the folders
# against each folder of the path). Several are JSON with comments, which no JSON reader
# accepts, so only their name can tell them apart from a broken op.
NOT_OURS_BY_NAME: dict[str, str] = {
    "package.json": "npm's package manifest",
    "package-lock.json": "npm's lock file",
    "npm-shrinkwrap.json": "npm's lock file",
    "composer.json": "Composer's package manifest",
    "bower.json": "Bower's package manifest",
    "tsconfig.json": "TypeScript's configuration (JSON with comments)",
    "tsconfig.*.json": "TypeScript's configuration (JSON with comments)",
    "jsconfig.json": "JavaScript project configuration (JSON with comments)",
    "jsconfig.*.json": "JavaScript project configuration (JSON with comments)",
    ".eslintrc.json": "ESLint's configuration (JSON with comments)",
    ".babelrc.json": "Babel's configuration (JSON with comments)",
    "devcontainer.json": "a dev container's configuration (JSON with comments)",
    ".devcontainer.json": "a dev container's configuration (JSON with comments)",
}
NOT_OURS_FOLDERS: dict[str, str] = {
    ".vscode": "VS Code's settings (JSON with comments)",
    ".devcontainer": "a dev container's configuration (JSON with comments)",
    ".idea": "a JetBrains IDE's settings",
}

# A key of an attribute or op object, or a near miss of one: what a key starts with...
_OP_KEY = (r"(?:(?:input|output|in|out)s?[_\-. ]?-?\d|domain[_\-. ]?name"
           r"|operator[_\-. ]?name|implementation[_\-. ]?attrs|is[_\-. ]?vkshader)")
# ... or holds anywhere (`inputBinding`, `my_shader_code`, `entryPoint`).
_OP_WORD = (r"(?:entry[_\-. ]?point|workgroup|local[_\-. ]?size|shader|push[_\-. ]?constant"
            r"|vk[_\-. ]?format|vk[_\-. ]?descriptor|descriptor[_\-. ]?set|binding|sampler"
            r"|spir[_\-. ]?v)")
_OP_KEY_RE = re.compile(rf"{_OP_KEY}|.*?{_OP_WORD}", re.IGNORECASE)


@cache
def _quoted_op_key() -> re.Pattern[str]:
    """In JSON of another shape (`[["entry_point", "main"]]`): a quoted string with an
    op key's name (compiled when first needed)."""
    return re.compile(rf'"(?:{_OP_KEY}|[^"]*?{_OP_WORD})[^"]*"', re.IGNORECASE)


NOT_AN_OP_DOCUMENT = rule(
    "VKS935",
    summary="A JSON file named on the command line is not an op document: it was skipped.",
    why="Hooks and scripts pass every `*.json` of a repository; `package.json` or "
        "`tsconfig.json` are not ops and must not block a commit. A file is skipped when its "
        "name is another tool's (package.json, tsconfig*.json, .vscode/, ...: the README "
        "lists them) or when it is valid JSON without any attribute or op key. JSON that "
        "does not parse is never skipped: it is checked, and reported (VKS100/VKS101). "
        "The info says the file was seen and deliberately not checked. Folders walked by "
        "`check` skip such files without one.",
    bad='tosa-vkshader check package.json   # {"name": "app", "version": "1.0.0"}',
    good="tosa-vkshader check ops/relu.json   # an attribute object or an op object",
)


@cache
def _names() -> re.Pattern[str]:
    """One pattern for every name of :data:`NOT_OURS_BY_NAME`, a group per entry."""
    return re.compile("|".join(f"(?P<n{k}>{fnmatch.translate(name)})"
                               for k, name in enumerate(NOT_OURS_BY_NAME)))


def not_ours_by_name(path: str | None) -> str | None:
    """Whose file ``path`` is, when its name says it is not an op document."""
    if not path:
        return None
    if "/" not in path and "\\" not in path:
        parts = [path]
    else:
        parts = re.split(r"[\\/]", path)
    found = _names().match(parts[-1])
    if found is not None and found.lastgroup is not None:
        return list(NOT_OURS_BY_NAME.values())[int(found.lastgroup[1:])]
    for folder in parts[:-1]:
        if folder in NOT_OURS_FOLDERS:
            return NOT_OURS_FOLDERS[folder]
    return None


def skip_reason(document: JsonDocument | None) -> str | None:
    """Why a JSON file that is not someone else's by its name (:func:`not_ours_by_name`)
    is not checked (the VKS935 note's words), or None when it must be. ``document`` is
    None when the text did not parse: such a file is never skipped, whatever it looks
    like."""
    if document is not None and not parsed_is_op_document(document.value, document.text):
        return "JSON without any attribute or op key is not an op document"
    return None


def _is_op_object(value: object) -> bool:
    return isinstance(value, dict) and any(
        isinstance(key, str) and _OP_KEY_RE.match(key) for key in value)


def parsed_is_op_document(document: object, text: str) -> bool:
    """For JSON already parsed (``document``, read from ``text``): is it an op document?"""
    if isinstance(document, dict):
        return not document or _is_op_object(document)
    if isinstance(document, list) and all(isinstance(item, dict) for item in document):
        return not document or any(_is_op_object(item) for item in document)
    # Another shape: checked (and reported as malformed) when it mentions an op key.
    return not isinstance(document, list) or bool(_quoted_op_key().search(text))
