"""A bounded pool of worker processes for shader checks, with a time limit per job.

Each worker is a process of its own session (process group). Stopping one freezes it,
kills every process it started (glslc puts itself in a process group of its own, so the
worker's group is not enough) and then the worker. A job that overruns its time limit gets its
worker killed and replaced; a worker that dies (a crash, the memory limit) is replaced
too. Either way only that one request fails, and the server goes on.

Jobs wait for a free worker in a queue of bounded length; when it is full, or the wait
is too long, :class:`PoolBusy` tells the client to come back later. A worker that becomes
free takes every waiting job of the same kind at once (up to ``max_batch``), so a burst
of compile requests costs a few glslc processes, not one each. When a batch of several
jobs times out or crashes, its jobs are retried one by one: only the culprit fails.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import resource
import signal
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from .options import Limits

# Modules the fork server imports once, so that each new worker starts warm.
PRELOAD = ["tosa_vkshader.web.jobs"]


class PoolBusy(Exception):
    """No worker became free in time, or too many jobs are waiting."""


class JobTimedOut(Exception):
    """The job ran past the time limit; its worker was killed."""


class WorkerCrashed(Exception):
    """The worker died while running the job."""


def _worker_main(conn: Connection, nice: int, memory_limit: int | None) -> None:
    os.setsid()  # its own process group: killing the group takes the compiler along
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides when workers stop
    if nice:
        os.nice(nice)  # compiles yield the CPU to the event loop serving lint requests
    if memory_limit:
        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    while True:
        try:
            func, job = conn.recv()
        except EOFError:  # the server is gone
            return
        # An exception here (a bug) ends the process with its traceback on stderr; the
        # server sees the closed pipe as a crash of this batch.
        conn.send(func(job))


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (from /proc; empty where there is none)."""
    found: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # it ended meanwhile
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def _kill_tree(pid: int) -> None:
    """SIGKILL ``pid``, its descendants and their process groups. The process is stopped
    first, so that it cannot start another one while its descendants are collected."""
    try:
        os.kill(pid, signal.SIGSTOP)
    except ProcessLookupError:
        return
    tree, pending = [], [pid]
    while pending:
        current = pending.pop()
        tree.append(current)
        pending.extend(_children(current))
    own_group = os.getpgrp()
    for member in reversed(tree):
        try:
            group = os.getpgid(member)
            if group != own_group:
                os.killpg(group, signal.SIGKILL)
            os.kill(member, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass  # already gone


class _Worker:
    """One worker process and its pipe. Used by one thread at a time."""

    def __init__(self, ctx: Any, nice: int, memory_limit: int | None) -> None:
        self._ctx = ctx
        self._nice = nice
        self._memory_limit = memory_limit
        self._process: Any = None
        self._conn: Connection | None = None
        self.restarts = 0

    def start(self) -> None:
        parent, child = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(target=_worker_main, daemon=True,
                                    args=(child, self._nice, self._memory_limit))
        process.start()
        child.close()
        self._process, self._conn = process, parent

    def stop(self) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if process is None:
            return
        _kill_tree(process.pid)
        process.join(5)
        if conn is not None:
            conn.close()

    def restart(self) -> None:
        self.stop()
        self.start()
        self.restarts += 1

    def exchange(self, func: Callable[[Any], Any], job: Any, timeout: float) -> Any:
        """Run ``func(job)`` in the worker process; blocking, so called in a thread."""
        if self._process is None or not self._process.is_alive():
            self.restart()
        assert self._conn is not None
        try:
            self._conn.send((func, job))
        except OSError:  # it died since the last job; this one never started: start over
            self.restart()
            assert self._conn is not None
            self._conn.send((func, job))
        if not self._conn.poll(timeout):
            self.restart()
            raise JobTimedOut(f"no result within {timeout:g} s")
        try:
            return self._conn.recv()
        except (EOFError, OSError):
            code = self._process.exitcode if self._process is not None else None
            self.restart()
            raise WorkerCrashed(f"the worker process ended (exit code {code})") from None


BatchFunc = Callable[[list[Any]], list[Any]]


@dataclass(eq=False, slots=True)
class _Pending:
    func: BatchFunc
    job: Any
    future: asyncio.Future
    started: bool = False
    alone: bool = False  # retried on its own after its batch failed


class WorkerPool:
    """``await pool.run(func, job)`` gives ``func([job, ...])[i]``, computed in one of
    ``workers`` processes, possibly together with other waiting jobs of the same func."""

    def __init__(self, workers: int, limits: Limits, *, nice: int = 10,
                 memory_limit: int | None = 2 * 1024 ** 3, max_batch: int = 32) -> None:
        if workers < 1:
            raise ValueError("a worker pool needs at least one worker")
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        self.limits = limits
        self.max_batch = max_batch
        self._workers = [_Worker(ctx, nice, memory_limit) for _ in range(workers)]
        self._threads = ThreadPoolExecutor(max_workers=workers,
                                           thread_name_prefix="shader-worker")
        self._queue: deque[_Pending] = deque()
        self._ready: asyncio.Condition | None = None
        self._dispatchers: list[asyncio.Task] = []
        self.busy = 0

    @property
    def size(self) -> int:
        return len(self._workers)

    @property
    def waiting(self) -> int:
        return len(self._queue)

    @property
    def restarts(self) -> int:
        return sum(w.restarts for w in self._workers)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._threads, w.start)
                               for w in self._workers))
        self._ready = asyncio.Condition()
        self._dispatchers = [asyncio.create_task(self._dispatch(w)) for w in self._workers]

    async def close(self) -> None:
        for task in self._dispatchers:
            task.cancel()
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(None, w.stop) for w in self._workers))
        self._threads.shutdown(wait=False, cancel_futures=True)

    async def run(self, func: BatchFunc, job: Any) -> Any:
        assert self._ready is not None, "start() the pool first"
        pending = _Pending(func, job, asyncio.get_running_loop().create_future())
        async with self._ready:  # the length check and the append in one step
            if len(self._queue) >= self.limits.queue_limit:
                raise PoolBusy(f"{len(self._queue)} shader checks are already waiting")
            self._queue.append(pending)
            self._ready.notify()
        try:
            await asyncio.wait({pending.future}, timeout=self.limits.queue_timeout)
            if not pending.future.done() and not pending.started:
                self._queue.remove(pending)
                raise PoolBusy(f"no worker became free within "
                               f"{self.limits.queue_timeout:g} s")
            # Started: the worker's time limit (per try) bounds the rest of the wait.
            return await asyncio.shield(pending.future)
        except asyncio.CancelledError:  # the client went away
            if not pending.started and pending in self._queue:
                self._queue.remove(pending)
            raise

    async def _take(self) -> list[_Pending]:
        assert self._ready is not None
        async with self._ready:
            await self._ready.wait_for(lambda: bool(self._queue))
            first = self._queue.popleft()
            batch = [first]
            while (not first.alone and self._queue and len(batch) < self.max_batch
                   and self._queue[0].func is first.func and not self._queue[0].alone):
                batch.append(self._queue.popleft())
        for pending in batch:
            pending.started = True
        return batch

    async def _dispatch(self, worker: _Worker) -> None:
        loop = asyncio.get_running_loop()
        ready = self._ready
        assert ready is not None, "start() the pool first"
        while True:
            batch = await self._take()
            self.busy += 1
            try:
                results = await loop.run_in_executor(
                    self._threads, worker.exchange, batch[0].func, [p.job for p in batch],
                    self.limits.timeout)
            except (JobTimedOut, WorkerCrashed) as exc:
                if len(batch) == 1:
                    if not batch[0].future.done():
                        batch[0].future.set_exception(exc)
                    continue
                async with ready:  # find the culprit: each job again, on its own
                    for pending in reversed(batch):
                        pending.alone = True
                        self._queue.appendleft(pending)
                    ready.notify_all()
            else:
                for pending, result in zip(batch, results, strict=True):
                    if not pending.future.done():
                        pending.future.set_result(result)
            finally:
                self.busy -= 1
