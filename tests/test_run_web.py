"""`serve --allow-run`: the playground's "Run on lavapipe", through a real server on
loopback. Off by default; bounded (elements, time, one run at a time per client)."""

from __future__ import annotations

import json

import pytest
from test_runtime_truth import IMAGE_DOUBLE
from web_helpers import running_server

from tosa_vkshader import Options
from tosa_vkshader.codegen import op_from_shader
from tosa_vkshader.web import create_app
from tosa_vkshader.web.problems import Problem
from tosa_vkshader.web.run_route import RunGate, RunLimits

from conftest import ROOT

pytestmark = pytest.mark.runtime

EXAMPLE = ROOT / "examples" / "add_sub_f32" / "model.mlir"
def op_text(workgroups: list[int], shape: str = "128x128") -> str:
    """An op object as the playground holds it: attributes, and the types to run it."""
    op = op_from_shader(IMAGE_DOUBLE, language="GLSL", workgroup_sizes=workgroups,
                        options=Options(select=("VKS1",)))
    document = op.to_op_object()
    document["inputs"] = document["outputs"] = [f"tensor<{shape}xf32>"]
    return json.dumps(document)


@pytest.fixture(scope="module")
def server():
    with running_server("--workers", "1", "--allow-run") as running:
        yield running


def test_off_unless_allowed(server):
    """Without --allow-run the app has no run route (and /healthz says so); with it, the
    page's script that offers the button is served."""
    assert not any(getattr(r, "path", None) == "/v1/run" for r in create_app().routes)
    assert server.health()["run"] is True
    with server.client() as client:
        assert client.get("/static/run.js").status_code == 200


def test_a_model_runs_with_random_inputs_and_a_preview(server):
    assert server.health()["run"] is True
    with server.client() as client:
        answer = client.post("/v1/run", json={"mlir": EXAMPLE.read_text(), "seed": 7}).json()
        again = client.post("/v1/run", json={"mlir": EXAMPLE.read_text(), "seed": 7}).json()
    assert answer["ok"] is True and answer["diagnostics"] == []
    assert answer["device"].startswith("llvmpipe") and answer["seed"] == 7
    [a, b] = answer["inputs"]
    total, difference = answer["results"]
    assert (total["name"], total["dtype"], total["shape"]) == ("result_0", "float32", [1, 256])
    assert len(total["values"]) == 16 and total["more"] == 240
    assert total["values"][0] == pytest.approx(a["values"][0] + b["values"][0], rel=1e-6)
    assert difference["values"][3] == pytest.approx(a["values"][3] - b["values"][3], rel=1e-6)
    assert again["inputs"] == answer["inputs"]  # the seed draws the same inputs


def test_the_write_check_finds_what_the_op_never_wrote(server):
    """Rows 8-127 never written; VKS518 ignored by the request, the device's finding is
    reported all the same."""
    with server.client() as client:
        answer = client.post("/v1/run", json={"text": op_text([16, 1, 1]),
                                              "options": {"ignore": ["VKS518"]}}).json()
    assert answer["ok"] is False
    [finding] = answer["diagnostics"]
    assert finding["code"] == "VKS962" and finding["severity"] == "error"
    assert "15360 of 16384 element(s) were never written" in finding["message"]
    x, y = answer["inputs"][0]["values"][:2], answer["results"][0]["values"][:2]
    assert y == pytest.approx([2 * v for v in x], rel=1e-6)


def test_what_cannot_run_is_said(server):
    with server.client() as client:
        untyped = json.loads(op_text([16, 16, 1]))
        del untyped["inputs"]
        response = client.post("/v1/run", json={"text": json.dumps(untyped)})
        assert response.status_code == 422
        assert "needs its operand and result types" in response.json()["detail"]
        # (rows of 128: 8,192 rows of 8 x 8 workgroups cover it, and it is too big to run here)
        big = client.post("/v1/run", json={"text": op_text([16, 1024, 1], "1024x1024")})
        assert big.status_code == 422 and "2097152 elements" in big.json()["detail"]
        broken = client.post("/v1/run", json={"mlir": EXAMPLE.read_text().replace(
            "input_1_binding", "input_01_binding")}).json()
    assert broken["ok"] is False and broken["results"] == []
    assert "VKS111" in {d["code"] for d in broken["diagnostics"]}


def test_one_run_at_a_time_per_client_and_a_bounded_number_in_all():
    gate = RunGate(RunLimits(concurrency=2))
    with gate.admitted("10.0.0.1"):
        with pytest.raises(Problem) as again:
            with gate.admitted("10.0.0.1"):
                pass
        assert (again.value.status, again.value.slug) == (429, "run-in-progress")
        with gate.admitted("10.0.0.2"), pytest.raises(Problem) as third:
            with gate.admitted("10.0.0.3"):
                pass
        assert (third.value.status, third.value.slug) == (503, "server-busy")
    with gate.admitted("10.0.0.1"):  # the first run has ended
        pass
