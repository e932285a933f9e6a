"""The OpenAPI 3.1 description of the web API, written by hand (served at /openapi.json)."""

from __future__ import annotations

from functools import cache
from typing import Any

from .. import __version__
from .options import REQUEST_OPTIONS, TARGET_ENVS
from .problems import PROBLEMS

_CODES = {"type": "array", "items": {"type": "string", "pattern": "^[Vv][Kk][Ss][0-9]{0,3}$"}}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _problem(description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/problem+json": {"schema": _ref("Problem")}}}


def _json(description: str, schema: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema":
                                                                         _ref(schema)}}}


SCHEMAS: dict[str, Any] = {
    "CheckOptions": {
        "type": "object", "additionalProperties": False,
        "description": "What to report and how to read the attributes. Everything else "
                       "(includes, compiler, limits) is fixed by the server.",
        "properties": {
            "select": {**_CODES, "description": "code prefixes to report (default: all)"},
            "ignore": {**_CODES, "description": "code prefixes not to report"},
            "workgroup_semantics": {"enum": ["dispatch", "local-size"]},
            "target_env": {"enum": list(TARGET_ENVS)},
        },
    },
    "OpObject": {
        "type": "object", "required": ["implementation_attrs"],
        "properties": {
            "domain_name": {"type": "string", "example": "com.arm.VulkanCustomShader"},
            "operator_name": {"type": "string"},
            "implementation_attrs": {"oneOf": [
                {"type": "object"},
                {"type": "string", "description": "the attribute object as JSON text"}]},
        },
    },
    "CheckRequest": {
        "type": "object", "additionalProperties": False,
        "description": "Exactly one of attributes, op, text.",
        "properties": {
            "attributes": {"type": "object", "description": "an attribute object"},
            "op": _ref("OpObject"),
            "text": {"type": "string", "description": "JSON text of an attribute object or "
                     "an op object; diagnostic locations point into it"},
            "options": _ref("CheckOptions"),
        },
        "oneOf": [{"required": ["attributes"]}, {"required": ["op"]}, {"required": ["text"]}],
    },
    "Location": {
        "type": ["object", "null"],
        "description": "1-based; columns count Unicode code points; the end is exclusive",
        "properties": {
            "path": {"type": ["string", "null"]},
            "line": {"type": "integer"}, "column": {"type": "integer"},
            "end_line": {"type": ["integer", "null"]},
            "end_column": {"type": ["integer", "null"]},
        },
    },
    "Diagnostic": {
        "type": "object",
        "required": ["code", "name", "severity", "message", "pointer", "location", "hint",
                     "docs"],
        "properties": {
            "code": {"type": "string", "example": "VKS112"},
            "name": {"type": "string"},
            "severity": {"enum": ["error", "warning", "info"]},
            "message": {"type": "string"},
            "pointer": {"type": "string", "description": "JSON pointer (RFC 6901)"},
            "location": _ref("Location"),
            "hint": {"type": ["string", "null"]},
            "docs": {"type": "string", "format": "uri"},
        },
    },
    "Report": {
        "type": "object",
        "description": "The same document as `tosa-vkshader check --format json`; one "
                       "file, path \"<request>\".",
        "required": ["version", "tool", "files", "summary"],
        "properties": {
            "version": {"type": "integer", "const": 1},
            "tool": {"type": "object", "properties": {"name": {"type": "string"},
                                                      "version": {"type": "string"}}},
            "files": {"type": "array", "items": {
                "type": "object", "required": ["path", "ok", "diagnostics"],
                "properties": {"path": {"type": ["string", "null"]},
                               "ok": {"type": "boolean"},
                               "diagnostics": {"type": "array",
                                               "items": _ref("Diagnostic")}}}},
            "summary": {"type": "object", "properties": {
                k: {"type": "integer"} for k in ("files", "errors", "warnings", "infos")}},
        },
    },
    "ReflectRequest": {
        "type": "object", "additionalProperties": False, "required": ["spirv"],
        "properties": {
            "spirv": {"type": "string", "contentEncoding": "base64",
                      "description": "the SPIR-V module"},
            "entry_point": {"type": "string",
                            "description": "default: the module's first entry point"},
        },
    },
    "ReflectResponse": {
        "type": "object", "required": ["ok", "reflection", "error", "diagnostics"],
        "properties": {
            "ok": {"type": "boolean"},
            "reflection": {"type": ["object", "null"], "description": "as `tosa-vkshader "
                           "reflect --format json` prints it"},
            "error": {"type": ["string", "null"]},
            "diagnostics": {"type": "array", "items": _ref("Diagnostic")},
        },
    },
    "Health": {
        "type": "object",
        "properties": {
            "status": {"const": "ok"}, "version": {"type": "string"},
            "workers": {"type": "object", "properties": {
                k: {"type": "integer"} for k in ("size", "busy", "waiting", "restarts")}},
        },
    },
    "Problem": {
        "type": "object", "description": "RFC 9457 problem details",
        "required": ["type", "title", "status", "detail"],
        "properties": {
            "type": {"type": "string", "format": "uri"},
            "title": {"type": "string"}, "status": {"type": "integer"},
            "detail": {"type": "string"},
            "field": {"type": "string", "description": "the request field at fault"},
        },
    },
}


@cache
def openapi_document() -> dict[str, Any]:
    request_errors = {str(status): _problem(title) for status, title in PROBLEMS.values()
                      if status in (400, 413, 415, 422)}
    worker_errors = {str(status): _problem(title) for status, title in PROBLEMS.values()
                     if status in (502, 503, 504)}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "tosa-vkshader web linter", "version": __version__,
            "description": "Check attributes of TOSA custom ops that embed a Vulkan compute "
                           "shader. Request options: " + ", ".join(REQUEST_OPTIONS) + ".",
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
        },
        "paths": {
            "/v1/check": {"post": {
                "operationId": "check", "summary": "Check an attribute object, an op object "
                "or JSON text",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": _ref("CheckRequest")}}},
                "responses": {"200": _json("the diagnostics (also when there are errors)",
                                           "Report"),
                              **request_errors, **worker_errors},
            }},
            "/v1/reflect": {"post": {
                "operationId": "reflect", "summary": "Reflect a SPIR-V module",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": _ref("ReflectRequest")}}},
                "responses": {"200": _json("entry points, bindings, push constants",
                                           "ReflectResponse"),
                              **request_errors, **worker_errors},
            }},
            "/healthz": {"get": {
                "operationId": "health", "summary": "Liveness and worker pool state",
                "responses": {"200": _json("the server is up", "Health")}}},
            "/openapi.json": {"get": {
                "operationId": "openapi", "summary": "This document",
                "responses": {"200": {"description": "OpenAPI 3.1",
                                      "content": {"application/json": {}}}}}},
            "/": {"get": {
                "operationId": "playground", "summary": "The playground page",
                "responses": {"200": {"description": "HTML",
                                      "content": {"text/html": {}}}}}},
        },
        "components": {"schemas": SCHEMAS},
    }
