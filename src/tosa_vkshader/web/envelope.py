"""Request bodies: parse them within limits and turn them into jobs, or raise a Problem.

``POST /v1/check`` takes what people paste:

    {"entry_point": ..., ...}       a bare attribute object, an op object or a list of ops
                                    (any JSON body without a request field below); positions
                                    point into the body as sent
    text/plain body                 TOSA MLIR text (every custom op), or JSON text
    {"attributes": {...}}           an attribute object
    {"op": {...}}                   an op object (implementation_attrs: object or JSON text)
    {"text": "..."}                 JSON text of either; positions point into it
    {"mlir": "..."}                 TOSA MLIR text; positions point into it
    + "shader" (with attributes or op): the shader source, put into shader_code
      ("shader_language" names its language; default: the op's own, else GLSL)
    + "options": {"select", "ignore", "workgroup_semantics", "target_env", "target_device"}

``POST /v1/fix``: the same inputs (no ``shader``). ``POST /v1/new``: a shader.
``POST /v1/reflect``: ``{"spirv": "<base64>", "entry_point": "main"}``.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

from ..config import Options
from ..sources.jsontext import (
    JsonDocument,
    member_document,
    member_text,
    nests_deeper,
    parse_json,
    reject_constant,
)
from .jobs import REQUEST_PATH, CheckJob, FixJob, NewJob, ReflectJob
from .ops import ATTRS_KEY, is_op_object
from .options import Limits, web_options
from .problems import Problem

INPUT_KEYS = ("attributes", "op", "text", "mlir")
CHECK_KEYS = (*INPUT_KEYS, "shader", "shader_language", "options")
# Fields that make a body a request rather than a pasted document: no attribute or op
# object has them (shader_language is an attribute, so it does not count).
REQUEST_MARKERS = (*INPUT_KEYS, "shader", "options")
FIX_KEYS = (*INPUT_KEYS, "options")
NEW_KEYS = ("shader", "shader_language", "entry_point", "name", "format_of", "sampler_of",
            "workgroup_sizes", "options")
REFLECT_KEYS = ("spirv", "entry_point")
SHADER_LANGUAGES = ("GLSL", "HLSL", "SPIR-V")
JSON_MEDIA = "application/json"
FORM_MEDIA = "application/x-www-form-urlencoded"  # curl -d without a Content-Type
TEXT_MEDIA = "text/plain"


@dataclass(frozen=True, slots=True)
class Body:
    """A request body as received: its bytes, its media type and, for JSON, its value
    (and, from :func:`lint_body`, the checker's parse of it, when that found nothing)."""

    data: bytes
    media: str  # JSON_MEDIA or TEXT_MEDIA
    value: Any = None
    document: JsonDocument | None = None


# One decoder for every body: json.loads with a hook builds a new one for each call.
_DECODER = json.JSONDecoder(parse_constant=reject_constant)


def parse_json_body(data: bytes, limits: Limits) -> Any:
    """The body's JSON value. It may nest two levels more than an attribute object may
    (the request object, then the op object)."""
    depth_limit = limits.max_depth + 2
    try:
        # What json.loads does with bytes: UTF-8, -16 or -32 by their first bytes.
        value = _DECODER.decode(data.decode(json.detect_encoding(data), "surrogatepass"))
    except RecursionError:
        raise Problem("invalid-request", f"the JSON nests deeper than {depth_limit} "
                      "levels") from None
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise Problem("invalid-request", f"the body is not JSON: {exc}") from None
    if data.count(b"[") + data.count(b"{") > depth_limit and nests_deeper(value, depth_limit):
        raise Problem("invalid-request", f"the JSON nests deeper than {depth_limit} levels")
    return value


def lint_body(data: bytes, media: str, limits: Limits) -> Body:
    """A lint route's body. JSON checked in the event loop (up to ``inline_body``: see
    ``app.lint_first``) is parsed as the checker parses a pasted document (what
    ``read_source`` does with the body): when that finds nothing wrong, its document is
    kept with the value, and a pasted body is checked without being parsed a second
    time. Otherwise the body is parsed as before: the 400s say what is wrong, the checker
    reads the body again to report what it found, and a large body is read by the worker
    that checks it (its job goes there as bytes, not as a parsed tree)."""
    if media != JSON_MEDIA:
        return Body(data, media)
    if len(data) <= limits.inline_body:
        document, problems = parse_json(data, REQUEST_PATH, max_bytes=limits.max_body,
                                        max_depth=limits.max_depth)
        if document is not None and not problems:
            return Body(data, media, document.value, document)
    return Body(data, media, parse_json_body(data, limits))


def parse_body(data: bytes, limits: Limits) -> dict[str, Any]:
    """A JSON body that must be an object (the request fields)."""
    value = parse_json_body(data, limits)
    if not isinstance(value, dict):
        raise Problem("invalid-request", "the body must be a JSON object")
    return value


def _only(body: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(key for key in body if key not in allowed)
    if unknown:
        raise Problem("invalid-field", f"unknown field {unknown[0]!r}; the request may "
                      "have " + ", ".join(allowed), field=unknown[0])


def _is_envelope(value: Any, keys: tuple[str, ...]) -> bool:
    """A request object (fields such as ``attributes``), not a pasted document. Attribute
    and op objects never have these keys, so a body with one of them is a request."""
    return isinstance(value, dict) and any(key in value for key in keys)


def looks_like_json(data: bytes) -> bool:
    return data.lstrip(b" \t\r\n\xef\xbb\xbf")[:1] in (b"{", b"[")


def _one_input(body: dict[str, Any], allowed: tuple[str, ...]) -> str:
    given = [key for key in allowed if key in body]
    if len(given) != 1:
        raise Problem("invalid-field", "give exactly one of " + ", ".join(allowed)
                      + (f" (got {', '.join(given)})" if given else ""), field=allowed[0])
    return given[0]


def _string(body: dict[str, Any], key: str, what: str) -> str:
    value = body[key]
    if not isinstance(value, str):
        raise Problem("invalid-field", f"{key} must be a string of {what}", field=key)
    return value


def _op_value(value: Any) -> dict[str, Any]:
    if not is_op_object(value):
        raise Problem("invalid-field", "op must be an object with implementation_attrs "
                      "(and domain_name, operator_name)", field="op")
    return value


def _as_sent(body: Body, key: str) -> JsonDocument | bytes:
    """The member ``key`` of a request object as it was sent: its own text, checked as
    `check` checks a file holding it (the same diagnostics, placed in that text). Where
    the body's parse found nothing wrong (:func:`lint_body`), the member's document, made
    without parsing it again (no part of such a body has a problem either); otherwise its
    bytes, in the body's encoding, for the checker to read as it reads a file (finding
    what the body's parse found: a lone surrogate, a number beyond a double, bytes that
    are not UTF-8)."""
    if body.document is not None:
        return member_document(body.document, key)
    encoding = json.detect_encoding(body.data)
    sent = JsonDocument(body.data.decode(encoding, "surrogatepass"), REQUEST_PATH,
                        body.value)
    return member_text(sent, key).encode("utf-8" if encoding == "utf-8-sig" else encoding,
                                         "surrogatepass")


def _sent_job(body: Body, key: str, options: Options) -> CheckJob:
    sent = _as_sent(body, key)
    if isinstance(sent, JsonDocument):
        return CheckJob("document", sent, options)
    return CheckJob("json", sent, options)


def _with_shader(attrs: Any, shader: Any, language: Any, field: str) -> dict[str, Any]:
    """``attrs`` with the separately sent shader source as its shader_code."""
    if isinstance(attrs, str):  # implementation_attrs as JSON text
        try:
            attrs = json.loads(attrs)
        except (ValueError, RecursionError):
            attrs = None
    if not isinstance(attrs, dict):
        raise Problem("invalid-field", f"{field} must be an attribute object to put the "
                      "shader into", field=field)
    if not isinstance(shader, str):
        raise Problem("invalid-field", "shader must be the shader source as a string",
                      field="shader")
    if language is None:
        language = attrs.get("shader_language") or "GLSL"
    if language not in SHADER_LANGUAGES:
        raise Problem("invalid-field", f"shader_language is {language!r}; use one of "
                      + ", ".join(SHADER_LANGUAGES), field="shader_language")
    return {**attrs, "shader_language": language, "shader_code": shader}


def check_job(body: Body, base: Options, limits: Limits) -> CheckJob:
    """What ``POST /v1/check`` asks for, whatever form it came in."""
    if body.media == TEXT_MEDIA:
        return CheckJob("json" if looks_like_json(body.data) else "mlir", body.data,
                        web_options(base, None, limits))
    value = body.value
    if not _is_envelope(value, REQUEST_MARKERS):
        # Pasted as it is: the core's JSON reader takes attributes, an op or a list of ops
        # (parsed already by lint_body, when that found nothing).
        options = web_options(base, None, limits)
        if body.document is not None:
            return CheckJob("document", body.document, options)
        return CheckJob("json", body.data, options)
    _only(value, CHECK_KEYS)
    options = web_options(base, value.get("options"), limits)
    key = _one_input(value, INPUT_KEYS)
    if "shader" in value or "shader_language" in value:
        if key not in ("attributes", "op"):
            raise Problem("invalid-field", "shader goes with attributes or op (in text and "
                          "mlir, put it into shader_code)", field="shader")
        if "shader" not in value:
            raise Problem("invalid-field", "shader_language needs shader", field="shader")
    if key == "text":
        return CheckJob("json", _string(value, "text", "JSON text"), options)
    if key == "mlir":
        return CheckJob("mlir", _string(value, "mlir", "TOSA MLIR text"), options)
    if key == "op":
        _op_value(value["op"])
    if "shader" not in value:
        # As sent: the same verdict as `check` on a file holding the member's bytes, the
        # diagnostics placed in them; like the CLI's, the pointers of an op's are
        # relative to its attribute object.
        return _sent_job(body, key, options)
    # With the shader put in, checked as the object now is (jobs.prepare: an op as its
    # pretty-printed text, the diagnostics placed in that).
    shader, language = value["shader"], value.get("shader_language")
    if key == "attributes":
        return CheckJob("attributes", _with_shader(value["attributes"], shader, language,
                                                   "attributes"), options)
    op = value["op"]
    return CheckJob("op", {**op, ATTRS_KEY: _with_shader(op[ATTRS_KEY], shader, language,
                                                         "op")}, options)


def fix_job(body: Body, base: Options, limits: Limits) -> FixJob:
    """What ``POST /v1/fix`` repairs: JSON text or a TOSA MLIR model, as the fix command
    reads a file (text/plain that is not JSON is a model, as ``POST /v1/check`` reads it)."""
    value = body.value
    if body.media == TEXT_MEDIA or not _is_envelope(value, REQUEST_MARKERS):
        options = web_options(base, None, limits)
        if body.media == TEXT_MEDIA and not looks_like_json(body.data):
            return FixJob(body.data, options, model=True)
        return FixJob(body.data.decode("utf-8", "replace"), options)
    _only(value, FIX_KEYS)
    options = web_options(base, value.get("options"), limits)
    key = _one_input(value, INPUT_KEYS)
    if key == "text":
        return FixJob(_string(value, "text", "JSON text"), options)
    if key == "mlir":
        return FixJob(_string(value, "mlir", "TOSA MLIR text"), options, model=True)
    document = value[key] if key == "attributes" else _op_value(value[key])
    if not isinstance(document, dict):
        raise Problem("invalid-field", "attributes must be an object", field="attributes")
    # As sent, as `fix` repairs a file holding the member's bytes.
    sent = _as_sent(body, key)
    return FixJob(sent.text if isinstance(sent, JsonDocument)
                  else sent.decode(json.detect_encoding(sent), "replace"), options)


def _by_binding(value: Any, field: str, what: str) -> tuple[tuple[str, str], ...]:
    """``format_of`` / ``sampler_of``: bindings mapped to strings, as `new`'s flags."""
    if value is None:
        return ()
    if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise Problem("invalid-field", f"{field} must map bindings (\"0\", \"0:1\" or a "
                      f"variable name) to {what}", field=field)
    return tuple(value.items())


def new_job(body: dict[str, Any], base: Options, limits: Limits) -> NewJob:
    """What ``POST /v1/new`` builds attributes for: a shader and what it does not say."""
    _only(body, NEW_KEYS)
    if "shader" not in body:
        raise Problem("invalid-field", "shader is missing: the GLSL or HLSL source, or "
                      "base64 SPIR-V with shader_language \"SPIR-V\"", field="shader")
    shader = _string(body, "shader", "shader source")
    language = body.get("shader_language", "GLSL")
    if language not in SHADER_LANGUAGES:
        raise Problem("invalid-field", f"shader_language is {language!r}; use one of "
                      + ", ".join(SHADER_LANGUAGES), field="shader_language")
    spirv = None
    if language == "SPIR-V":
        spirv = _base64(shader, "shader")
    for key in ("entry_point", "name"):
        if body.get(key) is not None and not isinstance(body[key], str):
            raise Problem("invalid-field", f"{key} must be a string", field=key)
    sizes = body.get("workgroup_sizes")
    if sizes is not None and not (isinstance(sizes, list) and len(sizes) == 3 and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 < v < 2 ** 32
            for v in sizes)):
        raise Problem("invalid-field", "workgroup_sizes must be three positive integers",
                      field="workgroup_sizes")
    return NewJob(language, shader if spirv is None else None, spirv, body.get("entry_point"),
                  body.get("name"),
                  _by_binding(body.get("format_of"), "format_of", "VK_FORMAT_... names"),
                  tuple(sizes) if sizes is not None else None,
                  web_options(base, body.get("options"), limits),
                  _by_binding(body.get("sampler_of"), "sampler_of",
                              "FILTER[,ADDRESS[,BORDER]], e.g. \"linear,repeat\""))


def _base64(text: str, field: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise Problem("invalid-field", f"{field} is not base64: {exc}", field=field) from None


def reflect_job(body: dict[str, Any]) -> ReflectJob:
    _only(body, REFLECT_KEYS)
    code = body.get("spirv")
    if not isinstance(code, str) or not code:
        raise Problem("invalid-field", "spirv must be the module as a base64 string",
                      field="spirv")
    data = _base64(code, "spirv")
    entry = body.get("entry_point")
    if entry is not None and not isinstance(entry, str):
        raise Problem("invalid-field", "entry_point must be a string", field="entry_point")
    return ReflectJob(data, entry or None)
