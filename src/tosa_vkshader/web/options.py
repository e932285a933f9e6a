"""The one place where the Options of a web request are built.

A request may choose what to report and how to read the attributes (select, ignore,
workgroup semantics, target environment); everything that touches the server's file
system or its resources is fixed here: no includes, no include directories, no compiler
path, size and depth limits from the server's settings.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields, replace
from typing import Any

from ..config import WORKGROUP_SEMANTICS, Options
from .problems import Problem

TARGET_ENVS = ("vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3", "vulkan1.4")
REQUEST_OPTIONS = ("select", "ignore", "workgroup_semantics", "target_env", "target_device")
_CODE_PREFIX = re.compile(r"VKS[0-9]{0,3}")


@dataclass(frozen=True, slots=True)
class Limits:
    """What one request may cost the server."""

    max_body: int = 1024 * 1024  # bytes of request body
    body_timeout: float = 30.0  # seconds for the whole body to arrive
    inline_body: int = 16 * 1024  # larger lint-only bodies are checked in a worker too
    max_depth: int = 64  # JSON nesting of the attribute object
    timeout: float = 5.0  # seconds a shader check may run in a worker (its compiles: 4)
    queue_limit: int = 256  # shader checks allowed to wait for a worker
    queue_timeout: float = 30.0  # seconds a shader check may wait for a worker
    cache_entries: int = 4096  # lint answers kept for repeated requests (0: none)
    cache_bytes: int = 32 * 1024 * 1024  # bytes those answers and their keys may take


# Fields of Options that name files or programs on the server, and the value every web
# request gets. Fields that Options does not have (yet) are skipped, so this holds
# before and after the compile settings join Options.
_FORCED = {
    "allow_includes": False,
    "include_dirs": (),
    "glslc": None,
}


def _codes(name: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [v for v in value.replace(" ", "").split(",") if v]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Problem("invalid-field", f"options.{name} must be a list of rule codes or "
                      "code prefixes such as \"VKS1\" or \"VKS220\"", field=f"options.{name}")
    codes = tuple(v.strip().upper() for v in value)
    bad = [c for c in codes if not _CODE_PREFIX.fullmatch(c)]
    if bad:
        raise Problem("invalid-field", f"options.{name}: {bad[0]!r} is not a rule code or "
                      "code prefix (VKS followed by up to three digits)",
                      field=f"options.{name}")
    return codes


def _choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise Problem("invalid-field", f"options.{name} is {value!r}; use one of "
                      + ", ".join(allowed), field=f"options.{name}")
    return value


def _target_devices(value: Any) -> tuple[str, ...]:
    """Shipped target-device profiles only: a request never names a file on the server."""
    from ..devices import SHIPPED

    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or any(
            n not in SHIPPED for n in names):
        raise Problem("invalid-field", f"options.target_device is {value!r}; use one or a "
                      f"list of the shipped profiles: {', '.join(SHIPPED)}",
                      field="options.target_device")
    return tuple(names)


# The options each request's choices give, per server configuration (a page re-checking
# as someone types sends the same choices every time): (base, limits, options) by
# (base, limits, the choices: sorted pairs when every value is a string, else JSON), kept
# with the objects so that their ids stay theirs.
_KNOWN: dict[tuple[int, int, Any], tuple[Options, Limits, Options]] = {}
_MAX_KNOWN = 256


def web_options(base: Options, requested: Any, limits: Limits) -> Options:
    """``base`` (the server's configuration) with the request's choices applied and every
    server-side resource pinned."""
    if requested is None:
        requested = {}
    if not isinstance(requested, dict):
        return _web_options(base, requested, limits)  # (says what is wrong)
    if all(type(value) is str for value in requested.values()):
        choices: Any = tuple(sorted(requested.items()))  # (what the page sends)
    else:
        choices = json.dumps(requested, sort_keys=True)
    key = (id(base), id(limits), choices)
    known = _KNOWN.get(key)
    if known is not None and known[0] is base and known[1] is limits:
        return known[2]
    options = _web_options(base, requested, limits)  # raises Problem for bad choices
    if len(_KNOWN) >= _MAX_KNOWN:
        _KNOWN.clear()
    _KNOWN[key] = (base, limits, options)
    return options


def _web_options(base: Options, requested: Any, limits: Limits) -> Options:
    if not isinstance(requested, dict):
        raise Problem("invalid-field", "options must be an object", field="options")
    unknown = sorted(set(requested) - set(REQUEST_OPTIONS))
    if unknown:
        raise Problem("invalid-field", f"unknown option {unknown[0]!r}; a request may set "
                      + ", ".join(REQUEST_OPTIONS), field=f"options.{unknown[0]}")
    changes: dict[str, Any] = {}
    for name in ("select", "ignore"):
        if requested.get(name) is not None:
            changes[name] = _codes(name, requested[name])
    if requested.get("workgroup_semantics") is not None:
        changes["workgroup_semantics"] = _choice(
            "workgroup_semantics", requested["workgroup_semantics"], WORKGROUP_SEMANTICS)
    if requested.get("target_env") is not None:
        changes["target_env"] = _choice("target_env", requested["target_env"], TARGET_ENVS)
    if requested.get("target_device") is not None:
        changes["target_device"] = _target_devices(requested["target_device"])
    changes["max_file_size"] = limits.max_body
    changes["max_depth"] = limits.max_depth
    have = {f.name for f in fields(Options)}
    changes.update({name: value for name, value in _FORCED.items() if name in have})
    if "compile_timeout" in have:
        # Let the compiler's own time limit fire first: it reports a diagnostic, while the
        # pool's limit (the backstop) can only answer with a 504 problem.
        changes["compile_timeout"] = max(1.0, limits.timeout * 0.8)
    return replace(base, **changes)
