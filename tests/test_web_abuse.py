"""Abuse: the server answers, rejects cleanly and stays up.

Oversized and endless bodies, absurd nesting, a shader that makes the preprocessor run
away, #include attempts, 100 concurrent compiles, a crashing and a hanging tool, a full
queue. Every server here is real (uvicorn on loopback) and started by the test.
"""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import uuid

import httpx
import pytest
from web_helpers import fake_tool, processes_marked, running_server, wait_until

from conftest import FIXTURES

pytestmark = pytest.mark.slow  # a real server (and browser) end to end

MARKER_VAR = "TOSA_VKSHADER_TEST_MARKER"
GLSL_HEADER = "#version 460\nlayout(local_size_x = 64) in;\n"


def glsl_attrs(code: str) -> dict:
    attrs = json.loads((FIXTURES / "valid" / "multi-resource.json").read_text())
    attrs["shader_code"] = code
    attrs.pop("push_constants")  # the shaders here have none (and VKS250 would say so)
    return attrs


def spirv_attrs() -> dict:
    data = (FIXTURES / "shaders" / "add_i32.spv").read_bytes()
    attrs = {"entry_point": "main", "workgroup_sizes": [32, 1, 1], "shader_language": "SPIR-V",
             "shader_code": base64.b64encode(data).decode()}
    for kind, binding in [("input_0", 0), ("input_1", 1), ("output_0", 2)]:
        attrs |= {f"{kind}_binding": binding, f"{kind}_descriptorset": 0,
                  f"{kind}_vkformat": "VK_FORMAT_R32_SINT",
                  f"{kind}_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}
    return attrs


def codes(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [d["code"] for d in response.json()["files"][0]["diagnostics"]]


def assert_problem(response: httpx.Response, status: int, slug: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == status and problem["type"].endswith("#" + slug)
    return problem


def lint(client: httpx.Client) -> None:
    """One lint-only request, answered."""
    response = client.post("/v1/check", json={"attributes": {
        "entry_point": "main", "workgroup_sizes": [8, 8, 1], "input_0_bindng": 0}})
    assert "VKS112" in codes(response)


@pytest.fixture(scope="module")
def marker() -> str:
    return uuid.uuid4().hex


@pytest.fixture(scope="module")
def server(tmp_path_factory, marker):
    home = tmp_path_factory.mktemp("web-abuse")
    with running_server("--workers", "2", "--timeout", "3", cwd=home, env={
            MARKER_VAR: marker, "TOSA_VKSHADER_CACHE_DIR": str(home / "cache")}) as running:
        yield running


@pytest.fixture(scope="module")
def client(server):
    with server.client() as c:
        yield c


def test_oversized_body_is_refused_with_413(server, client):
    body = json.dumps({"text": "x" * (1024 * 1024 + 10)}).encode()
    problem = assert_problem(client.post("/v1/check", content=body, headers={
        "content-type": "application/json"}), 413, "body-too-large")
    assert problem["limit"] == 1024 * 1024

    def endless():  # chunked, no Content-Length: the limit applies while reading
        for _ in range(4096):
            yield b" " * 1024

    with server.client() as fresh:
        assert_problem(fresh.post("/v1/check", content=endless(), headers={
            "content-type": "application/json"}), 413, "body-too-large")
    assert server.health()["status"] == "ok"
    lint(client)


def test_thousands_of_problems_are_capped_and_checked_off_the_event_loop(client):
    attrs = {f"input_{i}_bindng": i for i in range(3000)}  # 6000 diagnostics, ~80 KB
    result = client.post("/v1/check", json={"attributes": attrs}).json()
    [file] = result["files"]
    assert len(file["diagnostics"]) == 1001
    assert file["diagnostics"][0]["code"] == "VKS931"
    more = int(file["diagnostics"][0]["message"].split(" more diagnostics")[0])
    assert more >= 5000  # two per misspelled key
    assert file["ok"] is False and result["summary"]["errors"] == 1000


def test_deep_nesting_is_refused(client):
    deep = b'{"attributes": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"
    assert_problem(client.post("/v1/check", content=deep, headers={
        "content-type": "application/json"}), 400, "invalid-request")
    nested: object = 1
    for _ in range(80):
        nested = [nested]
    assert_problem(client.post("/v1/check", json={"attributes": {"x": nested}}), 400,
                   "invalid-request")
    # Inside JSON text the core's own limit applies and it is a diagnostic.
    text = '{"x": ' + "[" * 100 + "]" * 100 + "}"
    assert codes(client.post("/v1/check", json={"text": text})) == ["VKS104"]
    lint(client)


def test_runaway_preprocessor_is_stopped_and_leaves_nothing_running(server, client, marker):
    # Inside `#if 1`, the count before compiling (VKS309) leaves it to the compiler, whose
    # process is what this test stops.
    lines = [GLSL_HEADER, "#if 1", "#define X0 1+"]
    lines += [f"#define X{i} X{i - 1} X{i - 1}" for i in range(1, 40)]
    lines += ["#endif", "void main() { int a = X39 1; }"]
    response = client.post("/v1/check", json={"attributes": glsl_attrs("\n".join(lines))})
    if response.status_code == 200:  # the compiler gave up first (its own limit)
        assert set(codes(response)) & {"VKS300", "VKS306", "VKS911", "VKS912", "VKS913"}
    else:
        assert_problem(response, 504, "check-timed-out")
        assert server.health()["workers"]["restarts"] >= 1
    assert wait_until(lambda: not [p for p in processes_marked(marker) if "glslc" in p], 3.0)
    # The replaced worker compiles the next shader.
    assert codes(client.post("/v1/check", json={
        "attributes": glsl_attrs(GLSL_HEADER + "void main() { int x = ; }\n")})) == ["VKS300"]


@pytest.mark.parametrize("directive", [
    '#include "/etc/passwd"',
    '#include "../../../../../../etc/passwd"',
    "#include </etc/passwd>",
    '#extension GL_GOOGLE_include_directive : require\n#include "/proc/self/environ"',
])
def test_include_attempts_get_a_diagnostic_and_no_file(client, directive):
    response = client.post("/v1/check", json={
        "attributes": glsl_attrs(GLSL_HEADER + directive + "\nvoid main() {}\n")})
    assert {"VKS303", "VKS304"} & set(codes(response))
    assert "root:" not in response.text and "PATH=" not in response.text


def test_100_concurrent_compiles_each_get_their_own_answer(server):
    # Each shader is distinct (no cache hit) and has its syntax error at a place of its
    # own, so an answer given to the wrong request would show. (That lint answers while
    # compiles are held is test_web_routing's, without racing the clock.)
    def request_text(i: int) -> str:
        code = f"{GLSL_HEADER}// shader {i}{chr(10) * (i % 40)}\nvoid main() {{ int x = ; }}\n"
        return json.dumps({"entry_point": "main", "shader_language": "GLSL",
                           "shader_code": code})

    def error_column(i: int) -> int:  # the `;` after `=`, in the JSON text (one line)
        return request_text(i).index("= ;") + 3

    async def storm() -> list[httpx.Response]:
        limits = httpx.Limits(max_connections=100)
        async with httpx.AsyncClient(base_url=server.url, timeout=120, limits=limits) as ac:
            return await asyncio.gather(*(ac.post("/v1/check", json={"text": request_text(i)})
                                          for i in range(100)))

    responses = asyncio.run(storm())
    for i, response in enumerate(responses):
        assert response.status_code == 200, response.text
        [diag] = [d for d in response.json()["files"][0]["diagnostics"]
                  if d["code"] == "VKS300"]
        assert (diag["location"]["line"], diag["location"]["column"]) == (1, error_column(i))
    health = server.health()
    assert health["workers"]["busy"] == 0 and health["workers"]["waiting"] == 0


def test_cors_slow_bodies_and_a_small_limit_are_what_was_configured(tmp_path):
    with running_server("--workers", "1", "--cors-origin", "http://allowed.test",
                        "--max-body", "4096", "--body-timeout", "1", cwd=tmp_path) as server, \
            server.client() as c:
        allowed = c.options("/v1/check", headers={
            "origin": "http://allowed.test", "access-control-request-method": "POST",
            "access-control-request-headers": "content-type"})
        assert allowed.headers["access-control-allow-origin"] == "http://allowed.test"
        other = c.options("/v1/check", headers={
            "origin": "http://other.test", "access-control-request-method": "POST"})
        assert "access-control-allow-origin" not in other.headers
        assert_problem(c.post("/v1/check", json={"text": "x" * 5000}), 413, "body-too-large")
        assert c.post("/v1/check", json={"text": "{}"}).status_code == 200

        # A slow client: it sends half its body and then waits for the answer, which can
        # only be the server giving up on the rest (no clock raced on this side).
        host, port = server.url.removeprefix("http://").rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=60) as slow:
            slow.sendall(b"POST /v1/check HTTP/1.1\r\nHost: x\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 13\r\n\r\n"
                         b'{"text": ')
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                chunk = slow.recv(65536)
                if not chunk:
                    break
                answer += chunk
        head, _, payload = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 "), head
        assert json.loads(payload)["type"].endswith("#request-timeout")
        assert server.alive()


def test_a_crashing_tool_costs_one_request_not_the_server(tmp_path):
    tool = fake_tool(tmp_path, "spirv-val", "kill -9 $PPID")  # takes its worker down
    with running_server("--workers", "1", cwd=tmp_path,
                        env={"TOSA_VKSHADER_SPIRV_VAL": str(tool)}) as server, \
            server.client() as c:
        assert_problem(c.post("/v1/check", json={"attributes": spirv_attrs()}), 502,
                       "worker-crashed")
        assert server.alive()
        assert server.health()["workers"]["restarts"] >= 1
        lint(c)
        # The replacement worker takes the next shader (and crashes again, cleanly).
        assert_problem(c.post("/v1/check", json={"attributes": spirv_attrs()}), 502,
                       "worker-crashed")
        assert server.alive()


def test_a_hanging_tool_is_killed_and_a_full_queue_is_503(tmp_path):
    marker = uuid.uuid4().hex
    tool = fake_tool(tmp_path, "spirv-val", "exec sleep 60")
    with running_server("--workers", "1", "--timeout", "1", "--queue-limit", "2",
                        cwd=tmp_path, env={MARKER_VAR: marker,
                                           "TOSA_VKSHADER_SPIRV_VAL": str(tool)}) as server:

        async def burst() -> list[httpx.Response]:
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as ac:
                first = asyncio.create_task(
                    ac.post("/v1/check", json={"attributes": spirv_attrs()}))
                while server.health()["workers"]["busy"] == 0:  # the worker hangs on it
                    await asyncio.sleep(0.02)
                rest = [ac.post("/v1/check", json={"attributes": spirv_attrs()})
                        for _ in range(5)]
                return await asyncio.gather(first, *rest)

        with server.client() as c:
            responses = asyncio.run(burst())
            # One runs, two wait (the queue limit), three are told to come back later.
            assert sorted(r.status_code for r in responses) == [503] * 3 + [504] * 3
            for r in responses:
                if r.status_code == 503:
                    assert r.headers["retry-after"] == "5"
                    assert_problem(r, 503, "server-busy")
                else:
                    assert_problem(r, 504, "check-timed-out")
            assert wait_until(lambda: not [p for p in processes_marked(marker)
                                           if "sleep" in p], 3.0)
            assert server.alive()
            lint(c)
