"""Request bodies: parse them within limits and turn them into jobs, or raise a Problem.

``POST /v1/check``::

    {"attributes": {...}}        an attribute object
    {"op": {...}}                an op object (implementation_attrs: object or JSON text)
    {"text": "..."}              raw JSON text of either; positions point into it
    + "options": {"select", "ignore", "workgroup_semantics", "target_env"}

``POST /v1/reflect``: ``{"spirv": "<base64>", "entry_point": "main"}``.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from ..config import Options
from .jobs import CheckJob, ReflectJob
from .ops import is_op_object
from .options import Limits, web_options
from .problems import Problem

INPUT_KEYS = ("attributes", "op", "text")
CHECK_KEYS = (*INPUT_KEYS, "options")
REFLECT_KEYS = ("spirv", "entry_point")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _too_deep(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(node, dict):
            stack.extend((child, depth + 1) for child in node.values())
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node)
    return False


def parse_body(body: bytes, limits: Limits) -> dict[str, Any]:
    """The request's JSON object. The body may nest two levels more than an attribute
    object may (the request object, then the op object)."""
    depth_limit = limits.max_depth + 2
    try:
        value = json.loads(body, parse_constant=_reject_constant)
    except RecursionError:
        raise Problem("invalid-request", f"the JSON nests deeper than {depth_limit} "
                      "levels") from None
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise Problem("invalid-request", f"the body is not JSON: {exc}") from None
    if body.count(b"[") + body.count(b"{") > depth_limit and _too_deep(value, depth_limit):
        raise Problem("invalid-request", f"the JSON nests deeper than {depth_limit} levels")
    if not isinstance(value, dict):
        raise Problem("invalid-request", "the body must be a JSON object")
    return value


def _only(body: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise Problem("invalid-field", f"unknown field {unknown[0]!r}; the request may "
                      "have " + ", ".join(allowed), field=unknown[0])


def check_job(body: dict[str, Any], base: Options, limits: Limits) -> CheckJob:
    _only(body, CHECK_KEYS)
    given = [key for key in INPUT_KEYS if key in body]
    if len(given) != 1:
        raise Problem("invalid-field", "give exactly one of attributes, op, text"
                      + (f" (got {', '.join(given)})" if given else ""), field="attributes")
    options = web_options(base, body.get("options"), limits)
    key = given[0]
    value = body[key]
    if key == "attributes":
        return CheckJob("attributes", value, options)
    if key == "text":
        if not isinstance(value, str):
            raise Problem("invalid-field", "text must be a string of JSON text", field="text")
        return CheckJob("text", value, options)
    if not is_op_object(value):
        raise Problem("invalid-field", "op must be an object with implementation_attrs "
                      "(and domain_name, operator_name)", field="op")
    # Rendered once, so diagnostics point into the op as pretty-printed JSON; like the
    # CLI's, their pointers are relative to the attribute object.
    return CheckJob("text", json.dumps(value, indent=2, ensure_ascii=False), options)


def reflect_job(body: dict[str, Any]) -> ReflectJob:
    _only(body, REFLECT_KEYS)
    code = body.get("spirv")
    if not isinstance(code, str) or not code:
        raise Problem("invalid-field", "spirv must be the module as a base64 string",
                      field="spirv")
    try:
        data = base64.b64decode(code, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise Problem("invalid-field", f"spirv is not base64: {exc}", field="spirv") from None
    entry = body.get("entry_point")
    if entry is not None and not isinstance(entry, str):
        raise Problem("invalid-field", "entry_point must be a string", field="entry_point")
    return ReflectJob(data, entry or None)
