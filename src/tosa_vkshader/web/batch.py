"""Cheap checks that arrive together run together: one pipeline run per turn of the loop.

Under load, many lint requests become ready in the same turn of the event loop (each
connection's request is read before any of them runs). Checked one by one, each request
runs the whole pipeline alone, and the interpreter keeps leaving and re-entering every
stage; checked as one batch (``lint_only`` and ``run_fixes`` take a list of jobs, and
the pipeline runs a list of sources stage by stage), the same work costs about a third
less. A request adds its job to the open batch of its function and waits; the batch runs
once the requests ready in this turn have all added theirs (``call_soon``), so a request
alone waits for nothing but one turn of the loop.

A batch is closed at ``max_jobs`` jobs or ``max_bytes`` of request bodies, so the event
loop is never held much longer than by one large request. A batch that raises is run
again one job at a time, so an exception belongs to the request that caused it alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

BatchFunction = Callable[[list[Any]], list[Any]]


class _Batch:
    def __init__(self) -> None:
        self.jobs: list[Any] = []
        self.waiting: list[asyncio.Future[Any]] = []
        self.size = 0


class Batcher:
    """Runs ``func(jobs)`` for the jobs of one turn of the loop, per function."""

    def __init__(self, max_jobs: int = 64, max_bytes: int = 256 * 1024) -> None:
        self.max_jobs = max_jobs
        self.max_bytes = max_bytes
        self._open: dict[BatchFunction, _Batch] = {}

    async def run(self, func: BatchFunction, job: Any, size: int) -> Any:
        """``func([job])[0]``, computed in a batch with the jobs that arrive with it."""
        loop = asyncio.get_running_loop()
        batch = self._open.get(func)
        if batch is None or len(batch.jobs) >= self.max_jobs \
                or batch.size + size > self.max_bytes:
            batch = self._open[func] = _Batch()
            loop.call_soon(self._run, func, batch)
        waiting = loop.create_future()
        batch.jobs.append(job)
        batch.waiting.append(waiting)
        batch.size += size
        return await waiting

    def _run(self, func: BatchFunction, batch: _Batch) -> None:
        if self._open.get(func) is batch:
            del self._open[func]
        try:
            results = func(batch.jobs)
        except Exception:  # whose is it? each job again, alone
            for job, waiting in zip(batch.jobs, batch.waiting, strict=True):
                try:
                    result = func([job])[0]
                except Exception as exc:
                    if not waiting.done():
                        waiting.set_exception(exc)
                    continue
                if not waiting.done():
                    waiting.set_result(result)
            return
        for waiting, result in zip(batch.waiting, results, strict=True):
            if not waiting.done():  # (a request cancelled meanwhile: its client left)
                waiting.set_result(result)
