"""The web API against a real server on loopback: shapes, options, problems, reflection."""

from __future__ import annotations

import base64
import json
import subprocess
import sys

import httpx
import pytest
from openapi_spec_validator import validate as validate_openapi
from web_helpers import module_server

from conftest import FIXTURES

PROBLEM_TYPE = "application/problem+json"


server, client = module_server("web-api")


def check(client: httpx.Client, **body) -> dict:
    response = client.post("/v1/check", json=body)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    return response.json()


def diagnostics(result: dict) -> list[dict]:
    [file] = result["files"]
    return file["diagnostics"]


def assert_problem(response: httpx.Response, status: int, slug: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    problem = response.json()
    assert problem["status"] == status
    assert problem["type"].endswith("#" + slug)
    assert problem["title"] and problem["detail"]
    return problem


def test_health_and_openapi(client):
    health = client.get("/healthz").json()
    assert health["status"] == "ok"
    assert health["workers"]["size"] == 1
    spec = client.get("/openapi.json").json()
    validate_openapi(spec)
    assert {"/v1/check", "/v1/reflect", "/healthz"} <= set(spec["paths"])
    assert "413" in spec["paths"]["/v1/check"]["post"]["responses"]


@pytest.mark.parametrize("name", ["invalid/misspelled-key.json", "invalid/leading-zero-index.json",
                                  "invalid/duplicate-key.json", "valid/multi-resource.json"])
def test_text_gives_exactly_the_cli_json(client, tmp_path, name):
    text = (FIXTURES / name).read_text()
    cli = subprocess.run(
        [sys.executable, "-m", "tosa_vkshader", "check", "-", "--format", "json",
         "--stdin-filename", "<request>"],
        input=text, capture_output=True, text=True, cwd=tmp_path, check=False)
    assert cli.returncode in (0, 1), cli.stderr
    assert check(client, text=text) == json.loads(cli.stdout)


def test_attribute_object(client):
    attrs = json.loads((FIXTURES / "valid" / "multi-resource.json").read_text())
    assert check(client, attributes=attrs)["files"][0]["ok"] is True
    attrs["input_0_bindng"] = attrs.pop("input_0_binding")
    found = {d["code"]: d for d in diagnostics(check(client, attributes=attrs))}
    assert found["VKS112"]["pointer"] == "/input_0_bindng"
    assert found["VKS112"]["hint"] == "did you mean `input_0_binding`?"
    assert found["VKS112"]["docs"] == "tosa-vkshader rule VKS112"


def test_op_object_with_object_attrs(client):
    op = {"domain_name": "com.arm.VulkanCustomShader", "operator_name": "x",
          "implementation_attrs": {"entry_point": "main", "workgroup_sizes": [1, 1, 1],
                                   "input_00_binding": 0}}
    found = {d["code"]: d for d in diagnostics(check(client, op=op))}
    # Pointers are relative to the attribute object, as in the CLI's output.
    assert found["VKS111"]["pointer"] == "/input_00_binding"


def test_op_text_with_json_string_attrs_points_into_the_op_text(client):
    inner = json.dumps({"entry_point": "main", "workgroup_sizes": [1, 1, 1],
                        "input_0_bindng": 0}, indent=1)
    text = json.dumps({"domain_name": "com.arm.VulkanCustomShader", "operator_name": "x",
                       "implementation_attrs": inner}, indent=2)
    [misspelled] = [d for d in diagnostics(check(client, text=text)) if d["code"] == "VKS112"]
    loc = misspelled["location"]
    line = text.splitlines()[loc["line"] - 1]
    # The key inside the string, with its escaped quotes.
    assert line[loc["column"] - 1:loc["end_column"] - 1] == '\\"input_0_bindng\\"'


def test_op_text_with_object_attrs_points_into_the_text(client):
    text = ('{\n  "domain_name": "com.arm.VulkanCustomShader",\n  "operator_name": "x",\n'
            '  "implementation_attrs": {\n    "entry_point": "main",\n'
            '    "workgroup_sizes": [1, 1, 1],\n    "input_0_bindng": 0\n  }\n}\n')
    [misspelled] = [d for d in diagnostics(check(client, text=text)) if d["code"] == "VKS112"]
    assert misspelled["location"]["line"] == 7
    assert misspelled["location"]["column"] == 5
    assert misspelled["pointer"] == "/input_0_bindng"  # relative to the attributes


def test_request_options(client):
    attrs = {"entry_point": "main", "workgroup_sizes": [256, 1, 1], "input_00_binding": 0}
    codes = {d["code"] for d in diagnostics(check(client, attributes=attrs))}
    assert "VKS111" in codes and "VKS203" not in codes  # 256 workgroups are fine
    only = {d["code"] for d in diagnostics(check(client, attributes=attrs,
                                                 options={"select": ["VKS1"]}))}
    assert only and all(c.startswith("VKS1") for c in only)
    ignored = {d["code"] for d in diagnostics(check(client, attributes=attrs,
                                                    options={"ignore": "VKS111,VKS220"}))}
    assert not ignored & {"VKS111", "VKS220"}
    local_size = {d["code"] for d in diagnostics(check(
        client, attributes=attrs, options={"workgroup_semantics": "local-size"}))}
    assert "VKS203" in local_size  # a local size of 256 is over the guaranteed 128
    tensor = json.loads((FIXTURES / "valid" / "spec-spirv-example.json").read_text())
    assert check(client, attributes=tensor, options={"target_env": "vulkan1.1"})


@pytest.mark.parametrize("body, field", [
    ({"text": "{}", "options": {"workgroup_semantics": "both"}}, "options.workgroup_semantics"),
    ({"text": "{}", "options": {"target_env": "opengl4.5"}}, "options.target_env"),
    ({"text": "{}", "options": {"select": ["E501"]}}, "options.select"),
    ({"text": "{}", "options": {"include_dirs": ["/etc"]}}, "options.include_dirs"),
    ({"text": "{}", "path": "/etc/passwd"}, "path"),
    ({"text": "{}", "attributes": {}}, "attributes"),
    ({"options": {}}, "attributes"),
    ({"mlir": "module {}", "shader": "void main() {}"}, "shader"),
    ({"text": {"entry_point": "main"}}, "text"),
    ({"op": {"domain_name": "com.arm.VulkanCustomShader"}}, "op"),
])
def test_unusable_fields_are_422_problems(client, body, field):
    problem = assert_problem(client.post("/v1/check", json=body), 422, "invalid-field")
    assert problem["field"] == field


def test_malformed_bodies_are_problems(client):
    assert_problem(client.post("/v1/check", content=b"{not json",
                               headers={"content-type": "application/json"}),
                   400, "invalid-request")
    assert_problem(client.post("/v1/check", content=b'{"attributes": {"x": NaN}}',
                               headers={"content-type": "application/json"}),
                   400, "invalid-request")
    assert_problem(client.post("/v1/check", content=b"text=1",
                               headers={"content-type": "application/x-www-form-urlencoded"}),
                   415, "unsupported-media-type")
    assert_problem(client.post("/v1/reflect", content=b"AAAA",
                               headers={"content-type": "text/plain"}),
                   415, "unsupported-media-type")
    assert_problem(client.get("/v1/check"), 405, "method-not-allowed")
    assert_problem(client.get("/v2/check"), 404, "not-found")


CURL_DEFAULT = {"content-type": "application/x-www-form-urlencoded"}  # curl -d, no -H


def test_json_sent_as_curl_sends_it_without_a_content_type_is_read_as_json(client):
    # `curl -d '{...}' URL` labels the body a form; a body that starts with a bracket is
    # no form of ours, so it is the JSON it looks like, answered as if labelled so.
    attrs = {"entry_point": "main", "workgroup_sizes": [8, 8, 1], "input_00_binding": 0}
    for body in (json.dumps(attrs), json.dumps({"attributes": attrs}),
                 "  [" + json.dumps(attrs) + "]"):
        as_form = client.post("/v1/check", content=body.encode(), headers=CURL_DEFAULT)
        as_json = client.post("/v1/check", content=body.encode(),
                              headers={"content-type": "application/json"})
        assert as_form.status_code == 200, as_form.text
        assert as_form.json() == as_json.json()
        assert "VKS111" in [d["code"] for d in diagnostics(as_form.json())]
    fixed = client.post("/v1/fix", content=json.dumps(attrs).encode(), headers=CURL_DEFAULT)
    assert fixed.status_code == 200 and '"input_0_binding"' in fixed.json()["fixed"]
    new = client.post("/v1/new", headers=CURL_DEFAULT, content=json.dumps(
        {"shader": "#version 460\nlayout(local_size_x = 4) in;\nvoid main() {}\n"}).encode())
    assert new.status_code == 200 and new.json()["attributes"]["workgroup_sizes"] == [4, 1, 1]
    # A body that is not JSON keeps the 415, which names the header to add.
    problem = assert_problem(client.post("/v1/check", content=b"module {}",
                                         headers=CURL_DEFAULT), 415, "unsupported-media-type")
    assert "curl -d" in problem["detail"] and "text/plain" in problem["detail"]


def test_text_problems_are_diagnostics_not_http_errors(client):
    result = check(client, text='{"entry_point": "main",}')
    [diag] = diagnostics(result)
    assert diag["code"] == "VKS100"
    assert diag["hint"] == "remove the trailing comma"


def test_reflect(client):
    data = (FIXTURES / "shaders" / "add_i32.spv").read_bytes()
    response = client.post("/v1/reflect", json={"spirv": base64.b64encode(data).decode()})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["ok"] is True and body["error"] is None
    reflection = body["reflection"]
    assert reflection["local_size"]["values"] == [32, 1, 1]
    assert [(b["set"], b["binding"], b["descriptor_type"], b["access"])
            for b in reflection["bindings"]] == [
        (0, 0, "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "read"),
        (0, 1, "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "read"),
        (0, 2, "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "write")]
    missing = client.post("/v1/reflect", json={"spirv": base64.b64encode(data).decode(),
                                               "entry_point": "other"}).json()
    assert missing["ok"] is False and "other" in missing["error"]


def test_reflect_rejects_what_is_not_spirv(client):
    body = client.post("/v1/reflect", json={"spirv": base64.b64encode(b"\0" * 64).decode()})
    assert body.status_code == 200
    result = body.json()
    assert result["ok"] is False and result["reflection"] is None
    assert result["diagnostics"] and result["diagnostics"][0]["code"].startswith("VKS4")
    assert_problem(client.post("/v1/reflect", json={"spirv": "not base64!"}), 422,
                   "invalid-field")
    assert_problem(client.post("/v1/reflect", json={"spirv": "AAAA", "file": "/x.spv"}), 422,
                   "invalid-field")


def test_cors_is_off_by_default(client):
    response = client.options("/v1/check", headers={
        "origin": "http://elsewhere.test", "access-control-request-method": "POST"})
    assert "access-control-allow-origin" not in response.headers
    response = client.post("/v1/check", json={"text": "{}"},
                           headers={"origin": "http://elsewhere.test"})
    assert "access-control-allow-origin" not in response.headers


def test_page_and_its_assets_come_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for asset in ("/static/app.js", "/static/style.css", "/static/examples.js"):
        assert asset in page.text
        assert client.get(asset).status_code == 200
    assert "http" not in page.text.split("<body>")[0]  # nothing loaded from elsewhere
