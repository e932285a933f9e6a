"""Lint requests that arrive together are checked together (web/batch.py), and each gets
exactly the answer it gets alone: the same diagnostics, problems only for the request
that caused them, and a request whose job fails costs no other request its answer."""

from __future__ import annotations

import asyncio
import json

import pytest

from tosa_vkshader.web import create_app
from tosa_vkshader.web.batch import Batcher
from tosa_vkshader.web.options import Limits

ATTRS = {"entry_point": "main", "workgroup_sizes": [8, 8, 1], "input_0_bindng": 0,
         "input_0_descriptorset": 0, "input_0_vkformat": "VK_FORMAT_R32_SFLOAT",
         "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}


def bodies() -> list[tuple[str, bytes, str]]:
    """(path, body, content type): distinct lint requests of every kind, and bad ones."""
    found = []
    for k in range(12):
        attrs = {**ATTRS, "workgroup_sizes": [k + 1, 1, 1], f"note_{k}": k}
        found += [
            ("/v1/check", json.dumps(attrs, indent=k % 3).encode(), "application/json"),
            ("/v1/check", json.dumps({"attributes": attrs}).encode(), "application/json"),
            ("/v1/check", json.dumps({"text": json.dumps(attrs), "options": {
                "ignore": ["VKS115"] if k % 2 else [], "target_env": "vulkan1.2"}}).encode(),
             "application/json"),
            ("/v1/fix", json.dumps(attrs).encode(), "application/json"),
        ]
    found += [
        ("/v1/check", b'{"attributes": {}, "path": "/etc/passwd"}', "application/json"),
        ("/v1/check", b"{not json", "application/json"),
        ("/v1/check", b'{"text": "{\\"entry_point\\": \\"main\\",}"}', "application/json"),
        ("/v1/check", b"module {}", "text/plain"),
        ("/v1/check", json.dumps({"options": {"target_env": "vulkan9"},
                                  "attributes": ATTRS}).encode(), "application/json"),
    ]
    return found


async def ask(app, path: str, body: bytes, content_type: str) -> tuple[int, dict]:
    sent: list[dict] = []
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict:
        return messages.pop() if messages else await asyncio.Event().wait()

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5),
             "root_path": "", "method": "POST", "path": path, "raw_path": path.encode(),
             "query_string": b"", "headers": [(b"host", b"x"),
                                              (b"content-type", content_type.encode())]}
    await app(scope, receive, send)
    return sent[0]["status"], json.loads(b"".join(m.get("body", b"") for m in sent[1:]))


def test_requests_checked_together_get_the_answers_they_get_alone():
    requests = bodies()

    async def together():
        app = create_app(workers=1, limits=Limits(cache_entries=0))
        return await asyncio.gather(*(ask(app, *r) for r in requests))

    async def alone():
        app = create_app(workers=1, limits=Limits(cache_entries=0))
        return [await ask(app, *r) for r in requests]

    batched, single = asyncio.run(together()), asyncio.run(alone())
    assert batched == single
    statuses = [status for status, _ in batched]
    assert statuses.count(200) == 50 and sorted(set(statuses)) == [200, 400, 422]
    # Each request's own findings: the workgroup size each one was sent with.
    for (path, body, _), (_, answer) in zip(requests[:48], batched, strict=False):
        if path == "/v1/check":
            assert answer["files"][0]["diagnostics"], body


def test_a_job_that_fails_fails_alone_and_the_others_are_answered():
    calls: list[list[int]] = []

    def square_unless_seven(jobs: list[int]) -> list[int]:
        calls.append(list(jobs))
        if 7 in jobs:
            raise ValueError("seven")
        return [job * job for job in jobs]

    async def scenario():
        batcher = Batcher(max_jobs=4)
        return await asyncio.gather(*(batcher.run(square_unless_seven, job, 10)
                                      for job in range(10)), return_exceptions=True)

    results = asyncio.run(scenario())
    assert [r for k, r in enumerate(results) if k != 7] == [k * k for k in range(10) if k != 7]
    assert isinstance(results[7], ValueError)
    # Batches of at most 4 in arrival order; the one with 7 was run again job by job.
    assert calls[:2] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert [4] in calls and [8, 9] in calls


@pytest.mark.parametrize("sizes,expected", [
    ([100] * 5, [[0, 1], [2, 3], [4]]),  # at most 250 bytes of bodies in one batch
    ([300, 10, 10], [[0], [1, 2]]),  # a body over the bound still runs, alone
])
def test_a_batch_is_bounded_by_the_bytes_of_its_bodies(sizes, expected):
    calls: list[list[int]] = []

    def record(jobs: list[int]) -> list[int]:
        calls.append(list(jobs))
        return jobs

    async def scenario():
        batcher = Batcher(max_jobs=64, max_bytes=250)
        return await asyncio.gather(*(batcher.run(record, k, size)
                                      for k, size in enumerate(sizes)))

    assert asyncio.run(scenario()) == list(range(len(sizes)))
    assert calls == expected
