"""Where the server checks a request is decided from what it holds once read, and lint
never waits for a compile.

Deterministic: the compiler is a gate (a script in front of Debian's glslc that waits
until the test opens it), so a compile is held in its worker for as long as the test
wants. While it is held, /healthz and lint requests must be answered; if any of them ran
in the event loop behind the compile, or queued behind it, the test would block on it and
fail, whatever the machine's load. No clock is raced.
"""

from __future__ import annotations

import json
import shutil
import threading
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
from web_helpers import fake_tool, running_server, wait_until

if TYPE_CHECKING:
    from collections.abc import Iterator

GLSLC = shutil.which("glslc") or "/usr/bin/glslc"
HOLD_S = 60.0  # the gate is always opened long before this; a backstop only


def broken_glsl(tag: str) -> str:
    return (f"#version 460\n// {tag}\nlayout(local_size_x = 8) in;\n"
            "void main() {\n  int x = ;\n}\n")


def glsl_attrs(tag: str) -> dict:
    return {"entry_point": "main", "workgroup_sizes": [8, 1, 1], "shader_language": "GLSL",
            "shader_code": broken_glsl(tag)}


def op(name: str, attrs: dict) -> dict:
    return {"domain_name": "com.arm.VulkanCustomShader", "operator_name": name,
            "implementation_attrs": attrs}


def mlir_with_shader(tag: str) -> str:
    """A module with two custom ops; only the second one has shader code."""
    plain = json.dumps({"entry_point": "main", "workgroup_sizes": [8, 1, 1]})
    shader = json.dumps(glsl_attrs(tag))

    def escaped(text: str) -> str:
        return text.replace("\\", "\\\\").replace('"', '\\"')

    return (
        "module {\n"
        "  func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
        f'    %0 = tosa.custom %a {{domain_name = "com.arm.VulkanCustomShader", '
        f'operator_name = "plain", implementation_attrs = "{escaped(plain)}"}} '
        ": (tensor<8xf32>) -> tensor<8xf32>\n"
        f'    %1 = tosa.custom %0 {{domain_name = "com.arm.VulkanCustomShader", '
        f'operator_name = "shader", implementation_attrs = "{escaped(shader)}"}} '
        ": (tensor<8xf32>) -> tensor<8xf32>\n"
        "    return %1 : tensor<8xf32>\n  }\n}\n")


@pytest.fixture(scope="module")
def gate_folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("gate")


@pytest.fixture(scope="module")
def gated_server(tmp_path_factory, gate_folder):
    """A server whose glslc waits at the gate (its version query passes at once): it
    touches ``started`` there and waits until the test makes ``open``. One server for the
    module (a start costs ~0.5 s): each test has a shader of its own (no cache hit) and
    its gate closed again (``gate``)."""
    home = tmp_path_factory.mktemp("routing")
    bin_dir = home / "bin"
    bin_dir.mkdir()
    fake_tool(bin_dir, "glslc", f"""
case "$1" in --version) exec {GLSLC} "$@";; esac
touch "{gate_folder}/started"
while [ ! -e "{gate_folder}/open" ]; do sleep 0.02; done
exec {GLSLC} "$@"
""")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "TOSA_VKSHADER_CACHE_DIR": str(home / "c")}
    with running_server("--workers", "1", "--timeout", str(HOLD_S), cwd=home,
                        env=env) as server:
        yield server


@pytest.fixture
def gate(gate_folder, gated_server) -> Iterator[Path]:
    """The server's gate, closed, with no compile started at it; opened at the end
    however the test ended, so nothing stays held."""
    for name in ("started", "open"):
        (gate_folder / name).unlink(missing_ok=True)
    yield gate_folder
    (gate_folder / "open").touch()


def lint_request() -> dict:
    return {"entry_point": "main", "workgroup_sizes": [8, 8, 1], "input_0_bindng": 0}


def codes(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [d["code"] for d in response.json()["files"][0]["diagnostics"]]


def post_in_background(url: str, request: dict) -> tuple[threading.Thread, list]:
    """Send one request from a thread; its response lands in the list."""
    answers: list[httpx.Response] = []

    def send() -> None:
        with httpx.Client(base_url=url, timeout=HOLD_S * 2) as c:
            answers.append(c.post("/v1/check", **request))

    thread = threading.Thread(target=send)
    thread.start()
    return thread, answers


@pytest.mark.parametrize("shape", ["op list as text", "op list as body", "mlir text",
                                   "mlir field", "shader field"])
def test_a_shader_anywhere_in_the_request_compiles_in_a_worker_while_lint_answers(
        gated_server, gate, shape):
    tag = uuid.uuid4().hex  # a shader of its own: no cache hit
    ops = [op("plain", {"entry_point": "main", "workgroup_sizes": [8, 1, 1]}),
           op("shader", glsl_attrs(tag))]
    request = {
        "op list as text": {"json": {"text": json.dumps(ops)}},
        "op list as body": {"json": ops},
        "mlir text": {"content": mlir_with_shader(tag).encode(),
                      "headers": {"content-type": "text/plain"}},
        "mlir field": {"json": {"mlir": mlir_with_shader(tag)}},
        "shader field": {"json": {"op": op("x", {"entry_point": "main",
                                                 "workgroup_sizes": [8, 1, 1]}),
                                  "shader": broken_glsl(tag)}},
    }[shape]
    sender, answers = post_in_background(gated_server.url, request)
    try:
        # The compile has started in a worker process and is held there.
        assert wait_until(lambda: (gate / "started").exists(), HOLD_S)
        with gated_server.client() as c:
            health = c.get("/healthz").json()
            assert health["workers"]["busy"] == 1
            assert "VKS112" in codes(c.post("/v1/check", json={"attributes": lint_request()}))
            # A large lint-only body goes to the lint worker, not behind the compile.
            large = {f"input_{i}_bindng": i for i in range(1500)}
            assert len(json.dumps(large)) > 16 * 1024
            assert "VKS931" in codes(c.post("/v1/check", json=large))  # capped, answered
            assert not (gate / "open").exists()  # all of this while the compile is held
    finally:
        (gate / "open").touch()
        sender.join(HOLD_S * 2)
    [answer] = answers
    assert "VKS300" in codes(answer)


def test_a_compiler_that_kills_its_worker_costs_one_request(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_tool(bin_dir, "glslc", f"""
case "$1" in --version) exec {GLSLC} "$@";; esac
kill -9 $PPID
""")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "TOSA_VKSHADER_CACHE_DIR": str(tmp_path / "c")}
    with running_server("--workers", "1", cwd=tmp_path, env=env) as server, \
            server.client() as c:
        ops = [op("a", {"entry_point": "main", "workgroup_sizes": [8, 1, 1]}),
               op("b", glsl_attrs(uuid.uuid4().hex))]
        crashed = c.post("/v1/check", json={"text": json.dumps(ops)})
        assert crashed.status_code == 502, crashed.text
        assert crashed.json()["type"].endswith("#worker-crashed")
        assert server.alive() and server.health()["workers"]["restarts"] >= 1
        assert "VKS112" in codes(c.post("/v1/check", json=lint_request()))
