"""The body time limit, kept by one watch for every request of the app (web/body.py).

The app is called as an ASGI server calls it, with bodies that arrive whole, in pieces,
or never: a body that never ends is given up with 408 while the others are answered, and
a request cancelled by anything but the watch (the server shutting down) stays
cancelled. No clock is raced: a body that never arrives can only end by the limit.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from tosa_vkshader.web import create_app
from tosa_vkshader.web.options import Limits

BODY = json.dumps({"attributes": {"entry_point": "main",
                                  "workgroup_sizes": [8, 8, 1]}}).encode()


def scope(path: str = "/v1/check") -> dict:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5),
            "root_path": "", "method": "POST", "path": path, "raw_path": path.encode(),
            "query_string": b"", "headers": [(b"host", b"x"),
                                             (b"content-type", b"application/json")]}


def receiver(pieces: list[bytes], then_wait: bool = False):
    """Sends ``pieces`` one message each; then waits forever when ``then_wait``."""
    pending = list(pieces)

    async def receive() -> dict:
        if pending:
            piece = pending.pop(0)
            more = bool(pending) or then_wait
            await asyncio.sleep(0)
            return {"type": "http.request", "body": piece, "more_body": more}
        await asyncio.Event().wait()  # the rest of the body never comes
        raise AssertionError("unreachable")

    return receive


async def call(app, receive, path: str = "/v1/check") -> tuple[int, dict]:
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    await app(scope(path), receive, send)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], json.loads(body)


def test_a_body_that_never_ends_gets_408_while_whole_bodies_are_answered():
    app = create_app(workers=1, limits=Limits(body_timeout=0.4))

    async def scenario():
        slow = [asyncio.create_task(call(app, receiver([BODY[:10]], then_wait=True)))
                for _ in range(3)]
        whole = [await call(app, receiver([BODY[:7], BODY[7:]])) for _ in range(20)]
        return whole, await asyncio.gather(*slow)

    whole, slow = asyncio.run(scenario())
    assert all(status == 200 and answer["summary"]["errors"] == 0
               for status, answer in whole)
    for status, problem in slow:
        assert status == 408
        assert problem["type"].endswith("#request-timeout")
        assert "0.4 s" in problem["detail"]


def test_the_other_json_routes_keep_the_same_limit():
    app = create_app(workers=1, limits=Limits(body_timeout=0.3))
    status, problem = asyncio.run(call(app, receiver([b'{"shader": '], then_wait=True),
                                       "/v1/new"))
    assert status == 408 and problem["type"].endswith("#request-timeout")


def test_a_read_cancelled_by_someone_else_stays_cancelled():
    app = create_app(workers=1, limits=Limits(body_timeout=30))

    async def scenario():
        task = asyncio.create_task(call(app, receiver([BODY[:10]], then_wait=True)))
        await asyncio.sleep(0.05)
        task.cancel()  # what the server does when it shuts down
        with pytest.raises(asyncio.CancelledError):
            await task
        # The app goes on answering, and the next body is not cut short.
        return await call(app, receiver([BODY]))

    status, answer = asyncio.run(scenario())
    assert status == 200 and answer["files"][0]["ok"] is True
