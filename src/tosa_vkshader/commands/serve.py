"""`tosa-vkshader serve`: the web linter (JSON API and playground page) on uvicorn."""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path
from typing import Any

from ..config_file import ConfigError, load_options
from ._common import print_usage_diagnostics

EXIT_USAGE = 2


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve the web linter: POST /v1/check, /v1/reflect, the page at /",
        description="Serve the web linter API and playground page. Shader code is checked "
                    "in a pool of worker processes with a time limit per request; includes "
                    "are always disabled.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    parser.add_argument("--workers", type=_positive(int), default=os.cpu_count() or 1,
                        help="worker processes for shader checks (default: CPU count)")
    parser.add_argument("--timeout", type=_positive(float), default=5.0, metavar="SECONDS",
                        help="time limit of one shader check (default 5; its compiles get "
                             "four fifths of it)")
    parser.add_argument("--max-body", type=_positive(int), default=1024 * 1024,
                        metavar="BYTES", help="request body limit (default 1 MiB)")
    parser.add_argument("--body-timeout", type=_positive(float), default=30.0,
                        metavar="SECONDS", help="time for a request body to arrive "
                        "(default 30)")
    parser.add_argument("--queue-limit", type=_positive(int), default=256,
                        help="shader checks allowed to wait for a worker before 503")
    parser.add_argument("--cache-entries", type=_not_negative, default=4096, metavar="N",
                        help="answers of lint-only checks kept for repeated requests "
                             "(default 4096; 0 turns the cache off)")
    parser.add_argument("--cache-size", type=_not_negative, default=32 * 1024 * 1024,
                        metavar="BYTES", help="bytes those answers may take, request "
                        "bodies included (default 32 MiB)")
    parser.add_argument("--cors-origin", action="append", default=[], metavar="ORIGIN",
                        help="allow browser calls from ORIGIN (repeatable; default: none)")
    parser.add_argument("--config", type=Path, metavar="PYPROJECT",
                        help="read [tool.tosa-vkshader] from this file instead of the "
                             "nearest pyproject.toml")
    parser.add_argument("--allow-run", action="store_true",
                        help="serve POST /v1/run: the playground's \"Run on lavapipe\" runs "
                             "an op with random inputs on this machine's Vulkan device (one "
                             "run at a time per client, 20 s, 2^20 elements; needs the run "
                             "extra)")
    parser.add_argument("--log-level", default="warning",
                        choices=("critical", "error", "warning", "info", "debug"))
    parser.set_defaults(run=run)


def _positive(kind):
    def parse(text: str):
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value
    return parse


def _not_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def _bind(host: str, port: int) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401 (serve_app uses it: missing, it is said here)

        from ..web import Limits, create_app
    except ImportError as exc:
        print(f"tosa-vkshader serve: {exc.name} is missing; install the web extra: "
              "pip install '.[web]' in a tosa-vkshader checkout", file=sys.stderr)
        return EXIT_USAGE
    try:
        options = load_options(Path.cwd(), args.config)
    except ConfigError as exc:
        print_usage_diagnostics(exc.diagnostics)
        return EXIT_USAGE
    limits = Limits(max_body=args.max_body, body_timeout=args.body_timeout,
                    timeout=args.timeout, queue_limit=args.queue_limit,
                    cache_entries=args.cache_entries, cache_bytes=args.cache_size)
    run = None
    if args.allow_run:
        from ..web.run_route import RunLimits

        run = RunLimits()
    app = create_app(options, limits=limits, workers=args.workers,
                     cors_origins=tuple(args.cors_origin), run=run)
    try:
        sock = _bind(args.host, args.port)
    except OSError as exc:
        print(f"tosa-vkshader serve: cannot listen on {args.host}:{args.port}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"tosa-vkshader serve: listening on http://{shown}:{port}/ "
          f"({args.workers} shader workers)", file=sys.stderr, flush=True)
    serve_app(app, sock, args.log_level)
    return 0


def serve_app(app: Any, sock: socket.socket, log_level: str = "warning") -> None:
    """Serve ``app`` on the listening ``sock`` with uvicorn until stopped (what ``serve``
    runs; the web benchmark serves its app through here too).

    The cyclic garbage collector runs after every 50,000 net allocations (as for every
    command, see ``cli.program``), and what exists once the app is built is frozen out of
    its walks: a lint request makes a few hundred short-lived objects and no cycles, and
    with the default threshold a collection ran every other request."""
    import gc

    import uvicorn

    gc.set_threshold(50_000)
    gc.freeze()
    config = uvicorn.Config(app, log_level=log_level, access_log=False,
                            server_header=False, timeout_keep_alive=5, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
