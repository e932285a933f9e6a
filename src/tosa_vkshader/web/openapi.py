"""The OpenAPI 3.1 description of the web API, written by hand (served at /openapi.json)."""

from __future__ import annotations

from functools import cache
from typing import Any

from ..devices.targets import SHIPPED
from ..version import __version__
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
            "target_device": {
                "description": "shipped target-device profiles to check against (VKS7xx)",
                "oneOf": [{"enum": list(SHIPPED)},
                          {"type": "array", "items": {"enum": list(SHIPPED)}}]},
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
    "CheckEnvelope": {
        "type": "object", "additionalProperties": False,
        "description": "Exactly one of attributes, op, text, mlir. `shader` (with "
                       "attributes or op) is the shader source, put into shader_code.",
        "properties": {
            "attributes": {"type": "object", "description": "an attribute object"},
            "op": _ref("OpObject"),
            "text": {"type": "string", "description": "JSON text of an attribute object, "
                     "an op object or a list of ops; diagnostic locations point into it"},
            "mlir": {"type": "string", "description": "TOSA MLIR text; every "
                     "com.arm.VulkanCustomShader op is checked, locations point into it"},
            "shader": {"type": "string", "description": "GLSL/HLSL source (or base64 "
                       "SPIR-V) for the op's shader_code"},
            "shader_language": {"enum": ["GLSL", "HLSL", "SPIR-V"],
                                "description": "default: the op's own, else GLSL"},
            "options": _ref("CheckOptions"),
        },
        "oneOf": [{"required": ["attributes"]}, {"required": ["op"]}, {"required": ["text"]},
                  {"required": ["mlir"]}],
    },
    "CheckRequest": {
        "description": "A request object (it has one of attributes, op, text, mlir, "
                       "shader, options), or the document itself as pasted: a bare "
                       "attribute object, an op object or a list of ops. Locations then "
                       "point into the body.",
        "anyOf": [_ref("CheckEnvelope"), {"type": "object"}, {"type": "array"}],
    },
    "FixRequest": {
        "description": "The JSON document to repair as pasted, or a request object "
                       "(a TOSA MLIR model as text/plain or as mlir).",
        "anyOf": [{
            "type": "object", "additionalProperties": False,
            "properties": {"attributes": {"type": "object"}, "op": _ref("OpObject"),
                           "text": {"type": "string"}, "mlir": {"type": "string"},
                           "options": _ref("CheckOptions")},
            "oneOf": [{"required": ["attributes"]}, {"required": ["op"]},
                      {"required": ["text"]}, {"required": ["mlir"]}],
        }, {"type": "object"}],
    },
    "FixResponse": {
        "type": "object",
        "required": ["ok", "changed", "fixed", "diff", "changes", "diagnostics", "left"],
        "properties": {
            "ok": {"type": "boolean", "description": "what `tosa-vkshader fix` exits 0 "
                   "for: nothing refused (a repair fix must not guess at leaves the "
                   "document as it is) and no error left in the fixed document"},
            "changed": {"type": "boolean"},
            "fixed": {"type": ["string", "null"], "description": "the repaired document"},
            "diff": {"type": "string", "description": "unified diff, original to fixed"},
            "changes": {"type": "array", "items": {"type": "string"}},
            "diagnostics": {"type": "array", "items": _ref("Diagnostic"),
                            "description": "what could not be done, in the sent text"},
            "left": {"type": "array", "items": _ref("Diagnostic"),
                     "description": "the fixed document's check (as /v1/check makes it), "
                     "in the fixed text; empty when nothing was written"},
        },
    },
    "NewRequest": {
        "type": "object", "additionalProperties": False, "required": ["shader"],
        "properties": {
            "shader": {"type": "string", "description": "GLSL or HLSL source, or base64 "
                       "SPIR-V"},
            "shader_language": {"enum": ["GLSL", "HLSL", "SPIR-V"], "default": "GLSL"},
            "entry_point": {"type": "string"},
            "name": {"type": "string", "description": "also answer an op object named so"},
            "format_of": {"type": "object", "additionalProperties": {"type": "string"},
                          "description": "binding (\"0\", \"0:1\" or the variable name)"
                                         " -> VK_FORMAT_..., where the shader does not say"},
            "sampler_of": {"type": "object", "additionalProperties": {"type": "string"},
                           "description": "sampled image (as format_of) -> "
                                          "FILTER[,ADDRESS[,BORDER]], e.g. \"linear,repeat\": "
                                          "its input_N_sampler"},
            "workgroup_sizes": {"type": "array", "items": {"type": "integer"},
                                "minItems": 3, "maxItems": 3},
            "options": _ref("CheckOptions"),
        },
    },
    "NewResponse": {
        "type": "object", "required": ["ok", "attributes", "op", "text", "diagnostics"],
        "properties": {
            "ok": {"type": "boolean"},
            "attributes": {"type": ["object", "null"]},
            "op": {"type": ["object", "null"]},
            "text": {"type": ["string", "null"], "description": "what `tosa-vkshader new` "
                     "prints"},
            "diagnostics": {"type": "array", "items": _ref("Diagnostic")},
        },
    },
    "Rule": {
        "type": "object",
        "required": ["code", "name", "severity", "group", "summary", "why", "bad", "good",
                     "docs"],
        "properties": {
            "code": {"type": "string"}, "name": {"type": "string"},
            "severity": {"enum": ["error", "warning", "info"]},
            "group": {"type": "string"}, "summary": {"type": "string"},
            "why": {"type": "string"}, "bad": {"type": "string"},
            "good": {"type": "string"}, "docs": {"type": "string"},
        },
    },
    "Location": {
        "type": ["object", "null"],
        "description": "1-based; columns count Unicode code points; the end is exclusive",
        "properties": {
            "path": {"type": ["string", "null"]},
            "line": {"type": "integer"}, "column": {"type": "integer"},
            "end_line": {"type": ["integer", "null"]},
            "end_column": {"type": ["integer", "null"]},
            "logical": {"type": ["string", "null"]},
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
            "shader_location": {
                "type": ["object", "null"],
                "description": "line and column inside the decoded shader_code: where a "
                               "compile error is, or the declaration a finding at another "
                               "key is about",
                "properties": {"line": {"type": "integer"}, "column": {"type": "integer"}}},
            "shader_instruction": {
                "type": ["string", "null"],
                "description": "for embedded SPIR-V, the instruction a finding comes from",
                "example": "OpDecorate %dst Binding 1"},
            "hint": {"type": ["string", "null"]},
            "fixable": {"type": "boolean", "description": "has a safe fix"},
            "fix": {
                "type": ["object", "null"],
                "description": "the repair the rule knows: its edits are ranges of the text "
                               "that was checked (1-based, columns in code points, end "
                               "exclusive) and the text that replaces each; apply them "
                               "last first, all or none",
                "properties": {
                    "title": {"type": "string"},
                    "applicability": {"enum": ["safe", "unsafe", "display-only"]},
                    "edits": {"type": "array", "items": {
                        "type": "object",
                        "properties": {
                            "start": {"type": "object", "properties": {
                                "line": {"type": "integer"}, "column": {"type": "integer"}}},
                            "end": {"type": "object", "properties": {
                                "line": {"type": "integer"}, "column": {"type": "integer"}}},
                            "text": {"type": "string"}}}}}},
            "docs": {"type": "string", "description": "the command that prints the "
                     "rule's documentation (also served at /v1/rules/{code})",
                     "example": "tosa-vkshader rule VKS112"},
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
            "cache": {"type": "object", "description": "the answers of lint-only checks "
                      "kept for repeated requests, and how often they were used",
                      "properties": {k: {"type": "integer"} for k in (
                          "entries", "bytes", "max_entries", "max_bytes", "hits", "misses",
                          "evictions")}},
        },
    },
    "Problem": {
        "type": "object", "description": "RFC 9457 problem details",
        "required": ["type", "title", "status", "detail"],
        "properties": {
            "type": {"type": "string", "format": "uri-reference",
                     "description": "/docs/problems#<slug>, on this server"},
            "title": {"type": "string"}, "status": {"type": "integer"},
            "detail": {"type": "string"},
            "field": {"type": "string", "description": "the request field at fault"},
        },
    },
}


@cache
def openapi_document() -> dict[str, Any]:
    request_errors = {str(status): _problem(title) for status, title, _ in PROBLEMS.values()
                      if status in (400, 413, 415, 422)}
    worker_errors = {str(status): _problem(title) for status, title, _ in PROBLEMS.values()
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
                "operationId": "check", "summary": "Check attributes, an op, a list of ops "
                "or TOSA MLIR",
                "requestBody": {"required": True, "content": {
                    "application/json": {"schema": _ref("CheckRequest")},
                    "text/plain": {"schema": {"type": "string", "description":
                                              "TOSA MLIR text (or JSON text)"}}}},
                "responses": {"200": _json("the diagnostics (also when there are errors)",
                                           "Report"),
                              **request_errors, **worker_errors},
            }},
            "/v1/fix": {"post": {
                "operationId": "fix", "summary": "Repair a JSON document or a TOSA MLIR "
                "model mechanically (what `tosa-vkshader fix` does)",
                "requestBody": {"required": True, "content": {
                    "application/json": {"schema": _ref("FixRequest")},
                    "text/plain": {"schema": {"type": "string"}}}},
                "responses": {"200": _json("the fixed document and the diff",
                                           "FixResponse"), **request_errors},
            }},
            "/v1/new": {"post": {
                "operationId": "new", "summary": "Write the attributes of a compute shader "
                "(what `tosa-vkshader new` does)",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": _ref("NewRequest")}}},
                "responses": {"200": _json("the attributes, or why there are none",
                                           "NewResponse"),
                              **request_errors, **worker_errors},
            }},
            "/v1/rules/{code}": {"get": {
                "operationId": "rule", "summary": "One rule's documentation (HTML when the "
                "client accepts text/html)",
                "parameters": [{"name": "code", "in": "path", "required": True,
                                "schema": {"type": "string"},
                                "description": "a code such as VKS112, or the rule's name"}],
                "responses": {"200": {"description": "the rule", "content": {
                    "application/json": {"schema": _ref("Rule")},
                    "text/html": {}}},
                    "404": _problem("No such rule")},
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
                "operationId": "health", "summary": "Liveness, worker pool and cache state",
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
