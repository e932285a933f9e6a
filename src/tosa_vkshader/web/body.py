"""Reading a request body within the limits: size (413) and the time it may take (408).

The time limit is kept by one watch for all requests of an app rather than a timer per
request: a playground posts thousands of small bodies a second, each already complete
when the route reads it, and an ``asyncio.timeout`` per request (a timer scheduled and
cancelled every time) cost several times what reading the body costs. The watch notes
when each read started; while any read is in progress it looks every ``tick`` seconds
and cancels the reads that have run out of time, which then end with 408. A body is
therefore given between ``body_timeout`` and ``body_timeout + tick`` seconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.requests import ClientDisconnect

from .options import Limits
from .problems import Problem

Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]


class BodyWatch:
    """Cancels body reads that take longer than ``limit`` seconds (checked every ``tick``)."""

    def __init__(self, limit: float, tick: float | None = None) -> None:
        self.limit = limit
        self.tick = tick if tick is not None else min(1.0, limit / 4)
        self._deadlines: dict[asyncio.Task[Any], float] = {}  # reads in progress
        self._expired: set[asyncio.Task[Any]] = set()  # cancelled by the watch
        self._looking = False

    def start(self, task: asyncio.Task[Any]) -> None:
        loop = task.get_loop()
        self._deadlines[task] = loop.time() + self.limit
        if not self._looking:
            self._looking = True
            loop.call_later(self.tick, self._look, loop)

    def stop(self, task: asyncio.Task[Any]) -> None:
        self._deadlines.pop(task, None)
        self._expired.discard(task)

    def expired(self, task: asyncio.Task[Any]) -> bool:
        """True (once) when the watch cancelled ``task``: its cancellation is taken back."""
        if task not in self._expired:
            return False
        self._expired.discard(task)
        task.uncancel()
        return True

    def _look(self, loop: asyncio.AbstractEventLoop) -> None:
        now = loop.time()
        for task, deadline in list(self._deadlines.items()):
            if deadline <= now:
                # The read is suspended in receive(): the cancellation ends it there.
                del self._deadlines[task]
                self._expired.add(task)
                task.cancel()
        if self._deadlines:
            loop.call_later(self.tick, self._look, loop)
        else:
            self._looking = False


def too_large(limit: int) -> Problem:
    return Problem("body-too-large", f"the body exceeds the limit of {limit} bytes",
                   headers={"Connection": "close"}, limit=limit)


async def read_body(receive: Receive, declared: str | None, limits: Limits,
                    watch: BodyWatch) -> bytes:
    """The request body, refused with 413 as soon as it is known to exceed the limit
    (from ``declared``, the Content-Length, before reading), and with 408 when it
    trickles in for longer than the watch allows."""
    limit = limits.max_body
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large(limit)
    chunks: list[bytes] = []
    size = 0
    task = asyncio.current_task()
    assert task is not None  # (ASGI apps run in a task)
    watch.start(task)
    try:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise ClientDisconnect()
            if message["type"] != "http.request":
                continue
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise too_large(limit)
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
    except asyncio.CancelledError:
        if not watch.expired(task):
            raise
        raise Problem("request-timeout", f"the body did not arrive within "
                      f"{watch.limit:g} s", headers={"Connection": "close"}) from None
    finally:
        watch.stop(task)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
