"""Load test of the web linter on loopback: lint throughput as a ratio to a trivial JSON
echo endpoint served by the same stack, then lint-only requests per second and latency
percentiles at 32 connections, alone and while shader compiles run in the background.

    PYTHONPATH=src python bench/bench_web.py [--markdown] [--seconds 10] [--requests 20000]

Starts the web app on 127.0.0.1 (a free port) in a process of its own, exactly as
`tosa-vkshader serve` runs it (same app, served by serve's own `serve_app`: same uvicorn
and garbage collector settings), with one route added:
`POST /bench/echo` parses the JSON body and sends it back. Echo and lint phases alternate
(twice each), on the same connections and the same bodies, so both see the same machine.

The server keeps the answers of lint requests (see web/cache.py), so the ratio is
measured twice for each kind of body, side by side in the same run: with one body
repeated on every request (what a load test with a single body measures: after the
first request, every lint request is a cache hit) and with a distinct body on every
request (a name carries a counter: every lint request is a miss and is checked). The
lint-only phases after it send distinct bodies too.

Besides the small bodies (an attribute object without shader code), realistic ones: an
op with its shader (embedded SPIR-V, 2.5 KB), pasted as an op object and sent as
``{"op": ...}``, repeated, distinct (the operator's name counts up) and edited (its
workgroup_sizes counts up: a new op every time). ``--realistic-only`` measures those
alone.

Every phase is bounded by a request count and by time, whichever comes first. The load
generator is a small keep-alive HTTP/1.1 client on asyncio (uvloop when installed), so it
needs nothing but the project's own dependencies; with --wrk, Debian's `wrk` measures
the lint-only phase a second time (one repeated body: cache hits).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field

LINT_BODY = json.dumps({"attributes": {
    "entry_point": "main", "workgroup_sizes": [8, 8, 1], "input_0_bindng": 0,
    "input_0_descriptorset": 0, "input_0_vkformat": "VK_FORMAT_R32_SFLOAT",
    "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}}).encode()


def compile_body(i: int) -> bytes:
    """A distinct GLSL op each time, so every request really compiles (no cache hit)."""
    code = ("#version 460\nlayout(local_size_x = 64) in;\n"
            "layout(set = 0, binding = 0) buffer Data { float data[]; };\n"
            f"void main() {{ data[gl_GlobalInvocationID.x] *= {i}.0; }}\n")
    return json.dumps({"attributes": {
        "entry_point": "main", "workgroup_sizes": [64, 1, 1], "shader_language": "GLSL",
        "shader_code": code, "input_0_binding": 0, "input_0_descriptorset": 0,
        "input_0_vkformat": "VK_FORMAT_R32_SFLOAT",
        "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}}).encode()


# Realistic requests: an op with its shader (embedded SPIR-V, the add_i32 fixture), 2.5 KB:
# the op object pasted as it is, and the same inside {"op": ...}.
_FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "spirv",
                        "valid", "add_i32.json")
with open(_FIXTURE, encoding="utf-8") as _file:
    _ADD_I32 = json.load(_file)
OP_OBJECT = {"domain_name": "com.arm.VulkanCustomShader", "operator_name": "add_i32",
             "implementation_attrs": _ADD_I32}
OP_BODY = json.dumps(OP_OBJECT).encode()
OP_REQUEST_BODY = json.dumps({"op": OP_OBJECT}).encode()

# What the playground sends while a person types: the op as JSON text.
PAGE_BODY = json.dumps({"text": json.dumps(json.loads(LINT_BODY)["attributes"], indent=2),
                        "options": {"workgroup_semantics": "local-size",
                                    "target_env": "vulkan1.3"}}).encode()
# Attributes pasted as they are (the body is the document).
BARE_BODY = json.dumps(json.loads(LINT_BODY)["attributes"], indent=2).encode()
ECHO_PATH = "/bench/echo"
BodyMaker = Callable[[int], bytes]


def repeated(body: bytes) -> BodyMaker:
    """The same body on every request."""
    return lambda i: body


class Distinct:
    """A body of the same shape and size class on every request, never sent to the lint
    route before in this run: one name carries a counter (for the small bodies the entry
    point's, ``main_17``: it changes no diagnostic but every byte string, so no answer is
    cached; for the realistic ones the operator's, ``add_i32_17``, as when the same op is
    pasted under many names), or with ``edit`` the op itself changes: workgroup_sizes
    counts up, as while a person edits the op (a different op every time, so nothing
    checked before helps)."""

    counter = 0  # shared by every phase of the run

    def __init__(self, body: bytes, marker: bytes = b"main", *, edit: bool = False) -> None:
        self.marker = marker
        self.body = body
        self.edit = edit
        assert (len(_FIRST_WORKGROUP.findall(body)) if edit else body.count(marker)) == 1

    def __call__(self, i: int) -> bytes:
        Distinct.counter += 1
        if self.edit:
            return _FIRST_WORKGROUP.sub(rb"\g<1>%d" % Distinct.counter, self.body)
        return self.body.replace(self.marker, self.marker + b"_%d" % Distinct.counter)


_FIRST_WORKGROUP = re.compile(rb'("workgroup_sizes": \[)\d+')


def request(host: str, port: int, body: bytes, path: str = "/v1/check") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode() + body


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)  # seconds
    statuses: dict[int, int] = field(default_factory=dict)
    elapsed: float = 0.0

    def add(self, status: int, latency: float) -> None:
        self.latencies.append(latency)
        self.statuses[status] = self.statuses.get(status, 0) + 1

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] * 1000

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.elapsed if self.elapsed else 0.0

    def line(self, name: str) -> str:
        ok = self.statuses.get(200, 0)
        return (f"{name:<34} {len(self.latencies):>6} req  {self.rate:>7.0f} req/s  "
                f"p50 {self.percentile(50):6.1f} ms  p90 {self.percentile(90):6.1f} ms  "
                f"p99 {self.percentile(99):6.1f} ms  max {self.percentile(100):6.1f} ms"
                f"  ({ok} x 200{'' if ok == len(self.latencies) else f', {self.statuses}'})")


async def _exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    payload: bytes) -> int:
    writer.write(payload)
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    await reader.readexactly(length)
    return status


async def load(host: str, port: int, connections: int, count: int, seconds: float,
               make_body, result: Result, path: str = "/v1/check") -> None:
    """``connections`` keep-alive connections sending back to back until ``count``
    requests are done or ``seconds`` have passed."""
    deadline = time.perf_counter() + seconds
    issued = 0

    async def one_connection() -> None:
        nonlocal issued
        reader, writer = await asyncio.open_connection(host, port)
        try:
            while issued < count and time.perf_counter() < deadline:
                payload = request(host, port, make_body(issued), path)
                issued += 1
                started = time.perf_counter()
                status = await _exchange(reader, writer, payload)
                result.add(status, time.perf_counter() - started)
        finally:
            writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(one_connection() for _ in range(connections)))
    result.elapsed = time.perf_counter() - started


async def phase(host: str, port: int, args: argparse.Namespace,
                with_compiles: bool) -> tuple[Result, Result | None]:
    lint = Result()
    compiles = Result() if with_compiles else None
    tasks = [load(host, port, args.connections, args.requests, args.seconds,
                  Distinct(LINT_BODY), lint)]
    if compiles is not None:
        offset = int(time.time() * 1000) % 1_000_000  # distinct from earlier runs' cache
        tasks.append(load(host, port, args.compile_connections, 10**9, args.seconds,
                          lambda i: compile_body(offset + i), compiles))
    await asyncio.gather(*tasks)
    return lint, compiles


def run_wrk(url: str, args: argparse.Namespace) -> str:
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    body = LINT_BODY.decode().replace("\\", "\\\\").replace('"', '\\"')
    script.write(f'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                 f'wrk.body = "{body}"\n')
    script.close()
    try:
        out = subprocess.run(["wrk", "-t1", f"-c{args.connections}", f"-d{int(args.seconds)}s",
                              "--latency", "-s", script.name, url + "/v1/check"],
                             capture_output=True, text=True, timeout=args.seconds + 30,
                             check=True).stdout
    finally:
        os.unlink(script.name)
    keep = [line for line in out.splitlines()
            if line.strip().startswith(("50%", "90%", "99%", "Requests/sec", "Non-2xx"))
            or "requests in" in line]
    return "\n".join("  " + line.strip() for line in keep)


def serve_with_echo(workers: int) -> None:
    """Run in the server process: the app `tosa-vkshader serve` runs, plus the echo route,
    served as serve serves it (``commands.serve.serve_app``: same uvicorn settings, same
    collector settings). Prints the address on stderr, as serve does."""
    import socket

    from starlette.requests import Request
    from starlette.responses import JSONResponse

    from tosa_vkshader.commands.serve import serve_app
    from tosa_vkshader.web import create_app

    async def echo(request: Request) -> JSONResponse:
        return JSONResponse(json.loads(await request.body()))

    app = create_app(workers=workers)
    app.add_route(ECHO_PATH, echo, methods=["POST"])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}/", file=sys.stderr,
          flush=True)
    serve_app(app, sock)


def start_server(workers: int) -> tuple[subprocess.Popen, str, str]:
    cache = tempfile.mkdtemp(prefix="bench-web-cache-")
    process = subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--serve", "--workers", str(workers)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env={**os.environ, "TOSA_VKSHADER_CACHE_DIR": cache},
        cwd=tempfile.gettempdir())
    line = process.stderr.readline()
    if "listening on" not in line:
        process.kill()
        raise SystemExit(f"the server did not start: {line}")
    url = line.split("listening on ", 1)[1].split()[0].rstrip("/")
    import urllib.request

    for _ in range(200):  # bounded: 10 s
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1).read()
            break
        except OSError:
            time.sleep(0.05)
    return process, url, cache


async def versus_echo(host: str, port: int, args: argparse.Namespace, make_body: BodyMaker,
                      rounds: int = 2) -> tuple[Result, Result]:
    """Echo and lint phases, alternating, on bodies from ``make_body``; their totals."""
    echo, lint = Result(), Result()
    for _ in range(rounds):
        for path, total in ((ECHO_PATH, echo), ("/v1/check", lint)):
            part = Result()
            await load(host, port, args.connections, args.ratio_requests,
                       args.ratio_seconds, make_body, part, path)
            total.latencies += part.latencies
            for status, n in part.statuses.items():
                total.statuses[status] = total.statuses.get(status, 0) + n
            total.elapsed += part.elapsed
    return echo, lint


MODES = {
    "repeated": "one body repeated (a single-body load test: lint answers come from the cache)",
    "distinct": "a distinct body on every request (no answer cached; the same op under "
                "another name is not ruled on again)",
    "edited": "an edited op on every request (workgroup_sizes counts up: every op is new "
              "and checked, its shader analysed before)",
}


def ratio_lines(ratios: list[tuple[str, str, Result, Result]],
                args: argparse.Namespace) -> list[str]:
    lines = [f"lint vs JSON echo on the same stack, {args.connections} connections, "
             f"2 x {args.ratio_requests} requests / {args.ratio_seconds:g} s per phase, "
             "alternating:"]
    verdicts = []
    for mode, title in MODES.items():
        lines.append(f"  {title}:")
        measured = [(name, echo, lint) for m, name, echo, lint in ratios if m == mode]
        if not measured:
            continue
        for name, echo, lint in measured:
            lines += ["    " + echo.line(f"echo, {name}"), "    " + lint.line(f"lint, {name}"),
                      f"      ratio lint / echo: {lint.rate / echo.rate:.2f}"]
        worst = min(lint.rate / echo.rate for _, echo, lint in measured)
        verdicts.append(f"{mode} bodies {'met' if worst >= 0.5 else 'NOT met'} "
                        f"(lowest {worst:.2f})")
    lines.append("target ratio >= 0.5 for every body: " + "; ".join(verdicts))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="an already running server (default: start one)")
    parser.add_argument("--workers", type=int, default=2, help="shader workers of the "
                        "server started here")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--compile-connections", type=int, default=4,
                        help="compile requests kept in flight in the background phase")
    parser.add_argument("--requests", type=int, default=20_000,
                        help="lint requests per phase at most")
    parser.add_argument("--seconds", type=float, default=10.0, help="per phase at most")
    parser.add_argument("--wrk", action="store_true", help="also measure with Debian's wrk")
    parser.add_argument("--ratio-requests", type=int, default=10_000,
                        help="requests per echo or lint phase of the ratio, at most")
    parser.add_argument("--ratio-seconds", type=float, default=4.0,
                        help="seconds per echo or lint phase of the ratio, at most")
    parser.add_argument("--realistic-only", action="store_true",
                        help="measure the ratio for the realistic bodies only (an op with "
                             "its shader)")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_with_echo(args.workers)
        return 0

    try:
        import uvloop
    except ImportError:
        uvloop = None
    run = uvloop.run if uvloop is not None else asyncio.run

    process = cache = None
    url = args.url
    if url is None:
        process, url, cache = start_server(args.workers)
    host, port = url.split("//", 1)[1].rsplit(":", 1)
    try:
        warm = Result()
        run(load(host, int(port), 4, 500, 5.0, lambda i: LINT_BODY, warm))
        # The realistic bodies once first, unmeasured: the server reads each embedded
        # shader in a worker the first time it sees it (see web/cache.py).
        for body in (OP_BODY, OP_REQUEST_BODY):
            run(load(host, int(port), 1, 2, 5.0, lambda i, body=body: body, Result()))
        small = [(mode, name, body, make)
                 for name, body in (("{\"attributes\": ...}", LINT_BODY),
                                    ("{\"text\": ...} (the page)", PAGE_BODY),
                                    ("bare attributes", BARE_BODY))
                 for mode, make in (("repeated", repeated), ("distinct", Distinct))]
        realistic = [
            (mode, name, body, make)
            for name, body in (("op + SPIR-V shader, pasted (2.5 KB)", OP_BODY),
                               ("{\"op\": op + SPIR-V shader} (2.5 KB)", OP_REQUEST_BODY))
            for mode, make in (("repeated", repeated),
                               ("distinct", lambda b: Distinct(b, b"add_i32")),
                               ("edited", lambda b: Distinct(b, edit=True)))]
        chosen = realistic if args.realistic_only else small + realistic
        ratios = [] if args.url else [
            (mode, name, *run(versus_echo(host, int(port), args, make(body))))
            for mode, name, body, make in chosen]
        alone, _ = run(phase(host, int(port), args, with_compiles=False))
        busy, compiles = run(phase(host, int(port), args, with_compiles=True))
        wrk = run_wrk(url, args) if args.wrk and shutil.which("wrk") else None
    finally:
        if process is not None:
            process.terminate()
            process.wait(15)
        if cache:
            shutil.rmtree(cache, ignore_errors=True)

    lines = []
    if ratios:
        lines += ratio_lines(ratios, args)
    lines += [f"web linter on {url}, {args.connections} connections, "
              f"{os.cpu_count()} CPUs, bounded by {args.requests} requests / "
              f"{args.seconds:g} s per phase, a distinct body on every lint request:",
             "  " + alone.line("lint-only"),
             "  " + busy.line(f"lint-only, {args.compile_connections} compiles in flight"),
             "  " + compiles.line("  the background GLSL compiles")]
    if wrk:
        lines += ["wrk (lint-only, same connections):", wrk]
    ok = all(r.rate >= 800 and r.percentile(99) <= 50 for r in (alone, busy))
    lines.append(f"target >= 800 req/s and p99 <= 50 ms, alone and under compiles: "
                 f"{'met' if ok else 'NOT met'}")
    text = "\n".join(lines)
    print(f"```text\n{text}\n```" if args.markdown else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
