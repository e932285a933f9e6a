"""The shader worker pool: batching, time limits, crashes, the queue's bounds.

Deterministic: jobs queue up behind a blocker that waits at a gate (a file) which the
test opens only once they are all waiting, so which jobs form a batch never depends on
the machine's speed. Time limits are tested with jobs that never end.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from web_helpers import batch_probe, processes_marked, wait_until

from tosa_vkshader.web.options import Limits
from tosa_vkshader.web.pool import JobTimedOut, PoolBusy, WorkerCrashed, WorkerPool


def with_pool(workers: int, limits: Limits, scenario):
    async def main():
        pool = WorkerPool(workers, limits)
        await pool.start()
        try:
            return await scenario(pool)
        finally:
            await pool.close()

    return asyncio.run(main())


@pytest.fixture
def gate(tmp_path) -> Path:
    return tmp_path / "open"


async def behind_a_blocker(pool: WorkerPool, jobs: list[str], gate: Path):
    """Run a blocker first, so that ``jobs`` queue up behind it and form one batch."""
    first = asyncio.create_task(pool.run(batch_probe, f"gate:{gate}"))
    while pool.busy == 0:
        await asyncio.sleep(0.01)
    rest = [asyncio.create_task(pool.run(batch_probe, job)) for job in jobs]
    while pool.waiting < len(jobs):
        await asyncio.sleep(0.01)
    gate.touch()
    return await asyncio.gather(first, *rest, return_exceptions=True)


def test_waiting_jobs_run_as_one_batch(gate):
    async def scenario(pool):
        return await behind_a_blocker(pool, ["a", "b", "c", "d", "e"], gate)

    first, *rest = with_pool(1, Limits(timeout=10), scenario)
    assert first["batch"] == 1
    assert [r["job"] for r in rest] == ["a", "b", "c", "d", "e"]
    assert {r["batch"] for r in rest} == {5}
    assert len({r["pid"] for r in [first, *rest]}) == 1


def test_a_hanging_job_fails_alone_and_its_batch_mates_are_answered(gate):
    async def scenario(pool):
        results = await behind_a_blocker(pool, ["a", "hang", "b"], gate)
        return results, pool.restarts

    # The limit is reached twice (the batch, then the culprit alone), so it is what this
    # test costs; 2 s is still generous: only the job that never ends may reach it,
    # however loaded the machine (a fresh worker answers "a" in well under 0.5 s).
    (_, a, hang, b), restarts = with_pool(1, Limits(timeout=2.0), scenario)
    assert isinstance(hang, JobTimedOut)
    assert (a["job"], a["batch"]) == ("a", 1)  # answered when retried on its own
    assert (b["job"], b["batch"]) == ("b", 1)
    assert restarts == 2  # the batch, then the culprit alone


def test_a_crashing_job_fails_alone(gate):
    async def scenario(pool):
        return await behind_a_blocker(pool, ["a", "crash", "b"], gate)

    _, a, crash, b = with_pool(1, Limits(timeout=10), scenario)
    assert isinstance(crash, WorkerCrashed)
    assert a["job"] == "a" and b["job"] == "b"


def test_a_timed_out_job_takes_the_processes_it_started_along(tmp_path):
    marker = f"detach:{tmp_path.name}"

    async def scenario(pool):
        with pytest.raises(JobTimedOut):
            await pool.run(batch_probe, marker)

    with_pool(1, Limits(timeout=1.0), scenario)
    assert wait_until(lambda: not [p for p in processes_marked(marker) if "sleep" in p], 3.0)


def test_the_queue_is_bounded_in_length_and_in_time(gate):
    async def scenario(pool):
        blocker = asyncio.create_task(pool.run(batch_probe, f"gate:{gate}"))
        while pool.busy == 0:
            await asyncio.sleep(0.01)
        waiting = asyncio.create_task(pool.run(batch_probe, "a"))
        while pool.waiting == 0:
            await asyncio.sleep(0.01)
        with pytest.raises(PoolBusy, match="already waiting"):
            await pool.run(batch_probe, "b")
        # The blocker holds the only worker until the gate opens: "a" can only time out.
        with pytest.raises(PoolBusy, match="no worker became free"):
            await waiting
        assert pool.waiting == 0
        gate.touch()
        return await blocker

    result = with_pool(1, Limits(timeout=60, queue_limit=1, queue_timeout=0.5), scenario)
    assert result["job"] == f"gate:{gate}"
