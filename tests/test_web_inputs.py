"""What people paste into the web API: bare attributes, wrapped attributes, op objects and
lists, TOSA MLIR, a shader sent beside its op; and /v1/fix, /v1/new, /v1/rules.

Each answer is compared with what the command line says about the same text, or with
the expected diagnostics that the fixture files carry.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import httpx
import jsonschema
import pytest
from web_helpers import module_server

from conftest import FIXTURES

JSON = {"content-type": "application/json"}
TEXT = {"content-type": "text/plain"}
GLSL_SYNTAX_ERROR = FIXTURES / "glsl" / "invalid" / "glsl-syntax-error.json"
MODEL_EXPECTED = json.loads((FIXTURES / "models" / "expected.json").read_text())


server, client = module_server("web-inputs")


@pytest.fixture(scope="module")
def openapi(client):
    return client.get("/openapi.json").json()


def conforms(spec: dict, schema: str, value: dict) -> None:
    """``value`` is valid against the named schema of the served OpenAPI document."""
    jsonschema.Draft202012Validator({**spec, "$ref": f"#/components/schemas/{schema}"}
                                    ).validate(value)


def cli(*args: str, stdin: str | None = None, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tosa_vkshader", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, check=False)


def cli_json(text: str, cwd: Path) -> dict:
    done = cli("check", "-", "--format", "json", "--stdin-filename", "<request>",
               stdin=text, cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def report(response: httpx.Response, spec: dict) -> dict:
    assert response.status_code == 200, response.text
    body = response.json()
    conforms(spec, "Report", body)
    return body


def placed(body: dict) -> list[str]:
    """``CODE@line:column`` of every diagnostic, sorted (the fixtures' expected.json form)."""
    [file] = body["files"]
    return sorted(f"{d['code']}@{d['location']['line']}:{d['location']['column']}"
                  for d in file["diagnostics"])


def test_a_bare_attribute_body_is_read_as_pasted(client, openapi, tmp_path):
    text = ('{\n  "entry_point": "main",\n  "workgroup_sizes": [8, 8, 1],\n'
            '  "input_0_bindng": 0\n}\n')
    body = report(client.post("/v1/check", content=text, headers=JSON), openapi)
    assert body == cli_json(text, tmp_path)  # positions point into the body as sent
    [misspelled] = [d for d in body["files"][0]["diagnostics"] if d["code"] == "VKS112"]
    assert (misspelled["location"]["line"], misspelled["location"]["column"]) == (4, 3)
    assert misspelled["pointer"] == "/input_0_bindng"
    assert misspelled["hint"] == "did you mean `input_0_binding`?"
    assert misspelled["shader_location"] is None
    # The wrapped form finds the same problems at the same pointers.
    wrapped = report(client.post("/v1/check", json={"attributes": json.loads(text)}),
                     openapi)
    assert sorted((d["code"], d["pointer"]) for d in wrapped["files"][0]["diagnostics"]) \
        == sorted((d["code"], d["pointer"]) for d in body["files"][0]["diagnostics"])


@pytest.mark.parametrize("name", ["op-list.json", "op-object.json", "op-string.json"])
def test_op_objects_and_lists_pasted_as_they_are(client, openapi, name):
    data = (FIXTURES / "models" / name).read_bytes()
    body = report(client.post("/v1/check", content=data, headers=JSON), openapi)
    assert placed(body) == sorted(MODEL_EXPECTED[name])
    # Sent as text/plain, JSON is still read as JSON.
    assert placed(report(client.post("/v1/check", content=data, headers=TEXT), openapi)) \
        == sorted(MODEL_EXPECTED[name])


@pytest.mark.parametrize("name", ["pretty.mlir", "generic.mlir", "broken.mlir",
                                  "unsigned.mlir", "tensor_shaders.mlir", "no-custom-op.mlir"])
def test_mlir_every_custom_op_is_checked_at_its_place_in_the_mlir(client, openapi, name):
    text = (FIXTURES / "models" / name).read_text()
    as_text = report(client.post("/v1/check", content=text.encode(), headers=TEXT), openapi)
    assert placed(as_text) == sorted(MODEL_EXPECTED[name])
    as_field = report(client.post("/v1/check", json={"mlir": text}), openapi)
    assert as_field == as_text


def test_a_compile_error_carries_the_shader_line(client, openapi, tmp_path):
    text = GLSL_SYNTAX_ERROR.read_text()
    body = report(client.post("/v1/check", content=text, headers=JSON), openapi)
    assert body == cli_json(text, tmp_path)
    [error] = [d for d in body["files"][0]["diagnostics"] if d["code"] == "VKS300"]
    shader = json.loads(text)["shader_code"].splitlines()
    line = error["shader_location"]["line"]
    # glslc reports a missing `;` on the line after the statement that lacks it.
    assert shader[line - 2].endswith("gl_GlobalInvocationID.x")
    assert error["location"]["line"] == 9  # the shader_code line of the file


def test_a_cross_check_finding_carries_the_attribute_and_the_shader_line(client, openapi,
                                                                         tmp_path):
    text = (FIXTURES / "glsl" / "invalid" / "glsl-wrong-binding.json").read_text()
    body = report(client.post("/v1/check", content=text, headers=JSON), openapi)
    assert body == cli_json(text, tmp_path)
    [finding] = [d for d in body["files"][0]["diagnostics"] if d["code"] == "VKS412"]
    assert finding["pointer"] == "/output_0_binding" and finding["location"]["line"] == 17
    shader = json.loads(text)["shader_code"].splitlines()
    assert shader[finding["shader_location"]["line"] - 1].endswith("} dst;")
    # embedded SPIR-V: the instruction instead
    attrs = json.loads((FIXTURES / "spirv" / "valid" / "copy_f32.json").read_text())
    body = report(client.post("/v1/check", json={"attributes": {**attrs,
                                                                "output_0_binding": 2}}),
                  openapi)
    [finding] = [d for d in body["files"][0]["diagnostics"] if d["code"] == "VKS412"]
    assert finding["shader_instruction"] == "OpDecorate %outp Binding 1"


def test_a_shader_sent_beside_its_op(client, openapi):
    attrs = json.loads(GLSL_SYNTAX_ERROR.read_text())
    code = attrs.pop("shader_code")
    language = attrs.pop("shader_language")
    op = {"domain_name": "com.arm.VulkanCustomShader", "operator_name": "scale",
          "implementation_attrs": json.dumps(attrs)}
    embedded = report(client.post("/v1/check", json={"attributes": {
        **attrs, "shader_language": language, "shader_code": code}}), openapi)
    [expected] = [d["shader_location"] for d in embedded["files"][0]["diagnostics"]
                  if d["code"] == "VKS300"]
    for request in ({"op": op, "shader": code}, {"attributes": attrs, "shader": code,
                                                 "shader_language": "GLSL"}):
        body = report(client.post("/v1/check", json=request), openapi)
        [error] = [d for d in body["files"][0]["diagnostics"] if d["code"] == "VKS300"]
        assert error["shader_location"] == expected
        assert error["pointer"] == "/shader_code"
    # A fixed shader beside the same op checks clean.
    fixed = code.replace("gl_GlobalInvocationID.x\n", "gl_GlobalInvocationID.x;\n")
    body = report(client.post("/v1/check", json={"op": op, "shader": fixed}), openapi)
    assert body["files"][0]["ok"] is True


def test_fix_returns_the_fixed_document_and_a_diff(client, openapi, tmp_path):
    source = FIXTURES / "invalid" / "misspelled-key.json"
    response = client.post("/v1/fix", content=source.read_bytes(), headers=JSON)
    assert response.status_code == 200, response.text
    result = response.json()
    conforms(openapi, "FixResponse", result)
    # The same repair as `tosa-vkshader fix` makes to the file.
    copy = tmp_path / "attrs.json"
    copy.write_bytes(source.read_bytes())
    fixed_by_cli = cli("fix", str(copy), cwd=tmp_path)
    assert fixed_by_cli.returncode in (0, 1), fixed_by_cli.stderr
    assert result["changed"] is True and result["fixed"] == copy.read_text()
    assert result["ok"] is (fixed_by_cli.returncode == 0)
    assert result["diff"].startswith("--- a/<request>\n+++ b/<request>\n")
    assert result["changes"]
    after = report(client.post("/v1/check", content=result["fixed"], headers=JSON), openapi)
    assert "VKS112" not in {d["code"] for d in after["files"][0]["diagnostics"]}
    # The wrapped form repairs the same way; a clean document is left as it is.
    wrapped = client.post("/v1/fix", json={"text": source.read_text()}).json()
    assert wrapped["fixed"] == result["fixed"]
    clean = client.post("/v1/fix", json={"text": result["fixed"]}).json()
    assert clean["changed"] is False and clean["diff"] == ""


@pytest.mark.parametrize("sent_as", ["text/plain", "mlir"])
def test_fix_repairs_a_model_as_the_command_does(client, openapi, tmp_path, sent_as):
    """A TOSA MLIR model (as text/plain, as `check` takes it, or as ``{"mlir"}``) is
    repaired op by op inside its attribute strings, as `tosa-vkshader fix model.mlir`
    repairs the file (it was a 422: "fix repairs JSON")."""
    original = (FIXTURES / "models" / "pretty.mlir").read_text()
    at = original.index("entry_point", original.index("entry_point") + 1)
    damaged = original[:at] + "entryPoint" + original[at + len("entry_point"):]
    if sent_as == "mlir":
        response = client.post("/v1/fix", json={"mlir": damaged})
    else:
        response = client.post("/v1/fix", content=damaged.encode(), headers=TEXT)
    assert response.status_code == 200, response.text
    result = response.json()
    conforms(openapi, "FixResponse", result)
    copy = tmp_path / "model.mlir"
    copy.write_text(damaged)
    done = cli("fix", str(copy), cwd=tmp_path)
    assert result["fixed"] == copy.read_text() != damaged
    assert "renamed `entryPoint` to `entry_point`" in "\n".join(result["changes"])
    assert result["ok"] is (done.returncode == 0)
    checked = cli("check", "-", "--format", "json", "--stdin-filename", "<request>.mlir",
                  stdin=result["fixed"], cwd=tmp_path)
    expected = json.loads(checked.stdout)["files"][0]["diagnostics"]
    for diagnostic in expected:
        diagnostic["location"]["path"] = "<request>"
    assert result["left"] == expected


@pytest.mark.parametrize("broken", [False, True], ids=["repaired", "shader-error-left"])
def test_fix_says_what_is_left_as_the_command_does(client, openapi, tmp_path, broken):
    """/v1/fix's ``ok`` is `tosa-vkshader fix`'s exit 0, and ``left`` is the fixed
    document's check, its shader compiled (a compile worker's): a key the fix renames
    with a GLSL error it cannot repair is not "ok" (it was, with no diagnostics)."""
    attrs = json.loads((FIXTURES / "codegen" / "fix" / "glsl_to_embed.json").read_text())
    attrs["entryPoint"] = attrs.pop("entry_point")
    if broken:
        attrs["shader_code"] = attrs["shader_code"].replace("2.0 * x[i];", "2.0 * x[i]")
    text = json.dumps(attrs, indent=2) + "\n"
    result = client.post("/v1/fix", content=text.encode(), headers=JSON).json()
    conforms(openapi, "FixResponse", result)
    copy = tmp_path / "attrs.json"
    copy.write_text(text)
    done = cli("fix", str(copy), cwd=tmp_path)
    assert done.returncode == (1 if broken else 0), done.stderr
    assert result["changed"] and result["fixed"] == copy.read_text()
    assert result["ok"] is (not broken)
    # What is left is what `check` says of the fixed file, placed in the fixed text.
    expected = cli_json(result["fixed"], tmp_path)["files"][0]["diagnostics"]
    assert result["left"] == expected
    assert any(d["severity"] == "error" for d in result["left"]) is broken


def test_new_writes_the_attributes_of_a_shader(client, openapi, tmp_path):
    shader = FIXTURES / "shaders" / "add_i32.comp"
    response = client.post("/v1/new", json={"shader": shader.read_text(), "name": "add_i32"})
    assert response.status_code == 200, response.text
    result = response.json()
    conforms(openapi, "NewResponse", result)
    done = cli("new", str(shader), "--name", "add_i32", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert result["ok"] is True and result["op"] == json.loads(done.stdout)
    assert result["text"] == done.stdout
    assert result["attributes"] == result["op"]["implementation_attrs"]
    spirv = (FIXTURES / "shaders" / "add_i32.spv").read_bytes()
    from_spirv = client.post("/v1/new", json={"shader": base64.b64encode(spirv).decode(),
                                              "shader_language": "SPIR-V"}).json()
    assert from_spirv["ok"] is True and from_spirv["op"] is None
    assert from_spirv["attributes"]["shader_language"] == "SPIR-V"
    broken = client.post("/v1/new", json={"shader": "#version 460\nvoid main() { x = ; }\n"})
    assert broken.status_code == 200
    assert broken.json()["ok"] is False
    assert "VKS300" in {d["code"] for d in broken.json()["diagnostics"]}
    assert client.post("/v1/new", json={"shader": "AA=", "shader_language": "SPIR-V",
                                        "path": "/etc"}).status_code == 422


def test_new_writes_the_sampler_it_is_given_as_the_command_does(client, openapi, tmp_path):
    shader = FIXTURES / "shaders" / "combined_sampler.comp"
    body = {"shader": shader.read_text(), "format_of": {"tex": "VK_FORMAT_R8G8B8A8_UNORM"},
            "sampler_of": {"tex": "linear,repeat"}}
    result = client.post("/v1/new", json=body).json()
    conforms(openapi, "NewResponse", result)
    done = cli("new", str(shader), "--format-of", "tex=VK_FORMAT_R8G8B8A8_UNORM",
               "--sampler-of", "tex=linear,repeat", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert result["ok"] is True and result["attributes"] == json.loads(done.stdout)
    assert result["attributes"]["input_0_sampler"]["address_mode_u"] == \
        "VK_SAMPLER_ADDRESS_MODE_REPEAT"
    wrong = client.post("/v1/new", json={**body, "sampler_of": {"tex": 1}})
    assert wrong.status_code == 422 and "sampler_of" in wrong.text


def test_rule_documentation_is_served(client, openapi, tmp_path):
    response = client.get("/v1/rules/vks112")
    assert response.status_code == 200
    rule = response.json()
    conforms(openapi, "Rule", rule)
    explained = cli("rule", "VKS112", cwd=tmp_path).stdout
    assert rule["code"] == "VKS112" and rule["name"] in explained
    assert rule["summary"] in explained and rule["bad"].splitlines()[0] in explained
    page = client.get("/v1/rules/VKS112", headers={"accept": "text/html"})
    assert page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "<code>VKS112</code>" in page.text and "malformed-resource-key" in page.text
    assert client.get("/v1/rules/malformed-resource-key").json()["code"] == "VKS112"
    missing = client.get("/v1/rules/VKS999")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"


def test_the_openapi_document_describes_every_endpoint(openapi):
    from openapi_spec_validator import validate

    validate(openapi)
    assert {"/v1/check", "/v1/fix", "/v1/new", "/v1/reflect", "/v1/rules/{code}",
            "/healthz"} <= set(openapi["paths"])
    check = openapi["paths"]["/v1/check"]["post"]
    assert {"application/json", "text/plain"} <= set(check["requestBody"]["content"])
    assert {"400", "413", "415", "422", "502", "503", "504"} <= set(check["responses"])
