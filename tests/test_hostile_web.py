"""Hostile requests to `serve` on loopback (issue #14, items 1, 5 and 8).

The same hostile documents as the command-line fuzz suite, sent as `text`, as
`attributes` and inside op lists: every answer is a response below 500, and the server
keeps answering /healthz between them.
"""

from __future__ import annotations

import json

import pytest
from hostile_inputs import attribute_document
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_helpers import private_server

FUZZ = settings(max_examples=12, derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    home = tmp_path_factory.mktemp("hostile-web")
    with private_server(home) as server, server.client(timeout=120.0) as c:
        yield c


def test_a_huge_index_is_answered_with_a_range(client):
    text = ('{"entry_point": "main", "workgroup_sizes": [1, 1, 1], '
            '"input_0_binding": 0, "input_99999999999_binding": 1}')
    response = client.post("/v1/check", json={"text": text})
    assert response.status_code == 200, response.text
    messages = [d["message"] for f in response.json()["files"] for d in f["diagnostics"]]
    assert "input indices are [0, 99999999999]: input_1 … input_99999999998 are missing " \
        "(input_i describes the op's operand i, so they run 0, 1, 2, ... without gaps)" \
        in messages


@FUZZ
@given(doc=attribute_document(), shape=st.sampled_from(["text", "attributes", "list"]))
def test_hostile_documents_never_get_a_server_error(client, doc, shape):
    text = doc.decode()
    if shape == "text":
        body = {"text": text}
    else:
        try:
            value = json.loads(text)
        except RecursionError:
            value = None
        if value is None:
            body = {"text": text}
        elif shape == "attributes":
            body = {"attributes": value}
        else:
            body = {"text": json.dumps([value, value])}
    # The body itself is sent as ASCII JSON: lone surrogates travel as \\u escapes.
    response = client.post("/v1/check", content=json.dumps(body).encode(),
                           headers={"content-type": "application/json"})
    assert response.status_code < 500, response.text[:2000]
    assert client.get("/healthz").status_code == 200
