"""Start `tosa-vkshader serve` for real on loopback, and talk to it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

STARTUP_TIMEOUT = 30.0


@dataclass
class Server:
    url: str
    process: subprocess.Popen
    log: list[str] = field(default_factory=list)

    def client(self, **kwargs) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=kwargs.pop("timeout", 30.0), **kwargs)

    def health(self) -> dict:
        response = httpx.get(self.url + "/healthz", timeout=5.0)
        response.raise_for_status()
        return response.json()

    def alive(self) -> bool:
        return self.process.poll() is None


def _drain(stream, log: list[str], first_line: threading.Event) -> None:
    for line in stream:
        log.append(line.rstrip("\n"))
        first_line.set()
    first_line.set()


@contextmanager
def running_server(*args: str, env: dict[str, str] | None = None,
                   cwd: Path | None = None) -> Iterator[Server]:
    """``tosa-vkshader serve --port 0 ARGS`` in a subprocess; yields once /healthz answers."""
    full_env = {**os.environ, **(env or {})}
    process = subprocess.Popen(
        [sys.executable, "-m", "tosa_vkshader", "serve", "--port", "0", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env=full_env, cwd=cwd)
    log: list[str] = []
    first_line = threading.Event()
    threading.Thread(target=_drain, args=(process.stderr, log, first_line),
                     daemon=True).start()
    try:
        if not first_line.wait(STARTUP_TIMEOUT) or not log or "listening on" not in log[0]:
            raise RuntimeError(f"the server did not start: {log}")
        url = log[0].split("listening on ", 1)[1].split()[0].rstrip("/")
        server = Server(url, process, log)
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            try:
                server.health()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or not server.alive():
                    raise RuntimeError(f"the server never answered /healthz: {log}") from None
                time.sleep(0.05)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def fake_tool(folder: Path, name: str, script: str) -> Path:
    """An executable shell script standing in for glslc or spirv-val."""
    path = folder / name
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(0o755)
    return path


def processes_marked(marker: str) -> list[str]:
    """Command lines of running processes (not zombies) whose environment contains
    ``marker``: everything a server started with that marker in its environment spawned."""
    found = []
    needle = marker.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes():
                continue
            state = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[0]
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if state != b"Z":
            found.append(cmdline)
    return found


def wait_until(predicate, timeout: float, interval: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


def batch_probe(jobs: list[str]) -> list[dict]:
    """A batch function for pool tests (runs in a worker process): ``sleep:S`` sleeps,
    ``gate:PATH`` waits until the file PATH exists (the test opens it), ``hang`` never
    ends, ``crash`` kills the worker, ``detach:MARKER`` starts a process in
    a session of its own (as glslc does) and hangs; anything else answers at once."""
    import signal

    results = []
    for job in jobs:
        if job.startswith("sleep:"):
            time.sleep(float(job.split(":", 1)[1]))
        elif job.startswith("gate:"):
            while not os.path.exists(job.split(":", 1)[1]):
                time.sleep(0.01)
        elif job == "hang":
            time.sleep(3600)
        elif job == "crash":
            os.kill(os.getpid(), signal.SIGKILL)
        elif job.startswith("detach:"):
            subprocess.Popen(["sleep", "3600"], start_new_session=True,
                             env={**os.environ, "POOL_TEST_MARKER": job})
            time.sleep(3600)
        results.append({"job": job, "batch": len(jobs), "pid": os.getpid()})
    return results


@contextmanager
def private_server(home: Path, *args: str) -> Iterator[Server]:
    """One compile worker, run from ``home`` with its own compile cache: what each web
    test module starts once for its tests. ``args`` go to ``serve`` as well."""
    with running_server("--workers", "1", *args, cwd=home,
                        env={"TOSA_VKSHADER_CACHE_DIR": str(home / "cache")}) as running:
        yield running


def module_server(name: str, *args: str) -> tuple[Any, Any]:
    """The module-scoped ``server`` (a :func:`private_server` in a folder of its own,
    started with ``args``) and ``client`` fixtures of a web test module: ``server,
    client = module_server("web-api")``."""

    @pytest.fixture(scope="module")
    def server(tmp_path_factory):
        with private_server(tmp_path_factory.mktemp(name), *args) as running:
            yield running

    @pytest.fixture(scope="module")
    def client(server):
        with server.client() as c:
            yield c

    return server, client
