"""The ASGI application: routes, limits, the worker pool. Thin: checking is the core's.

    from tosa_vkshader.web import create_app
    app = create_app()          # serve with any ASGI server; `tosa-vkshader serve` uses uvicorn

Where a check runs is decided from what the request holds once it is read (a shader
inside a list of ops or an MLIR module counts, whatever the outer shape): small requests
without shader code are checked in the event loop, larger ones in a lint worker, and
anything with shader code in the bounded compile pool. Lint never waits behind a compile,
and a compiler that crashes or hangs costs its own request only. The lint routes
(``/v1/check``, ``/v1/fix``) are plain ASGI apps that keep their answers
(lint_routes.py, cache.py); those checked in the event loop that arrive together are
checked together (batch.py).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..config import Options
from ..version import __version__
from .batch import Batcher
from .body import BodyWatch, read_body
from .cache import Answer, AnswerCache, OpMemo, VettedShaders, is_stable
from .envelope import JSON_MEDIA, Body, check_job, fix_job, new_job, parse_body, reflect_job
from .jobs import (
    CheckJob,
    FixJob,
    FixResult,
    NeedsWorker,
    lint_only,
    run_checks,
    run_fixes,
    run_news,
    run_reflects,
)
from .lint_routes import LintRoute, body_media, json_answer, media_of, render_json
from .openapi import openapi_document
from .options import Limits
from .pool import JobTimedOut, PoolBusy, WorkerCrashed, WorkerPool
from .problems import MEDIA_TYPE, PROBLEMS_PATH, Problem, problems_html
from .rule_page import rule_document, rule_html
from .run_route import RunLimits, run_route

PAGE_HEADERS = {
    # Everything the page needs comes from this server; nothing inline, nothing remote.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


# Shared by the event loop's checks of every app in this process (see cache.py).
VETTED = VettedShaders()
OP_MEMO = OpMemo()


def lint_results(jobs: list[CheckJob]) -> list[dict[str, Any] | NeedsWorker]:
    """The result of each check that needs no worker (what a worker must do for the
    others), with this process's vetted shaders and op memo."""
    return lint_only(jobs, VETTED, OP_MEMO)


def fix_results(jobs: list[FixJob]) -> list[FixResult]:
    return run_fixes(jobs, VETTED, OP_MEMO)


def problem_response(problem: Problem) -> Response:
    return Response(json.dumps(problem.to_dict()), status_code=problem.status,
                    headers=problem.headers, media_type=MEDIA_TYPE)


class SafeJSONResponse(JSONResponse):
    """JSON with non-ASCII characters escaped: any string the input held (a lone
    surrogate from a ``\\ud800`` escape included) can be sent back."""

    def render(self, content: Any) -> bytes:
        return render_json(content)


async def in_pool(pool: WorkerPool, func: Callable[[Any], Any], job: Any) -> Any:
    try:
        return await pool.run(func, job)
    except PoolBusy as exc:
        raise Problem("server-busy", f"{exc}; retry later",
                      headers={"Retry-After": "5"}) from None
    except JobTimedOut as exc:
        raise Problem("check-timed-out", f"the shader check was stopped: {exc}",
                      timeout=pool.limits.timeout) from None
    except WorkerCrashed as exc:
        raise Problem("worker-crashed", f"{exc}; the worker was replaced") from None


def _page() -> bytes:
    return resources.files(__package__).joinpath("static/index.html").read_bytes()


@dataclass(slots=True)
class Linter:
    """What the routes share: the server's options (requests may change what is reported,
    never what touches the server) and limits, the worker pools, the answer cache, the
    watch over body reads, the batcher of lint requests and the page."""

    base: Options
    limits: Limits
    # Processes that check shaders; and one for large lint-only requests, so they never
    # queue behind compiles (and never stall the event loop).
    pool: WorkerPool
    lint_pool: WorkerPool
    cache: AnswerCache
    watch: BodyWatch
    batcher: Batcher
    page: bytes


def _linter(request: Request) -> Linter:
    linter: Linter = request.app.state.linter
    return linter


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    linter: Linter = app.state.linter
    await asyncio.gather(linter.pool.start(), linter.lint_pool.start())
    try:
        yield
    finally:
        await asyncio.gather(linter.pool.close(), linter.lint_pool.close())


async def lint_first(linter: Linter, batch_func: Callable[[list[Any]], list[Any]],
                     pool_func: Callable[[list[Any]], list[Any]], job: Any, size: int) -> Any:
    """The result of a lint job (``batch_func``'s in the event loop, ``pool_func``'s in a
    lint worker). Checking a large body with thousands of bad keys takes long enough to
    stall every other request if done in the event loop: a lint worker takes it. Small
    ones are checked in the loop, together with those that arrive with them."""
    if size > linter.limits.inline_body:
        return await in_pool(linter.lint_pool, pool_func, job)
    return await linter.batcher.run(batch_func, job, size)


async def check(linter: Linter, body: Body) -> tuple[Answer, bool]:
    """``POST /v1/check`` (a LintRoute handler)."""
    job = check_job(body, linter.base, linter.limits)
    answer = await lint_first(linter, lint_results, lint_only, job, len(body.data))
    if not isinstance(answer, NeedsWorker):
        return json_answer(answer), True
    # Shader code for a worker. Its answer is kept when it compiled nothing and depends on
    # no moment (cache.py); the embedded SPIR-V it read is then vetted, and checked in
    # the event loop from now on.
    result = await in_pool(linter.pool, run_checks, job)
    stable = is_stable(result)
    if stable:
        VETTED.add(answer.spirv)
    return json_answer(result), stable and not answer.compiles


async def fix(linter: Linter, body: Body) -> tuple[Answer, bool]:
    """``POST /v1/fix`` (a LintRoute handler): the repair where a check without shaders
    is made (the event loop, or a lint worker for a large body), then the repaired
    text's check as ``POST /v1/check`` makes it (a compile worker's where it has shader
    code: such an answer is not kept)."""
    job = fix_job(body, linter.base, linter.limits)
    result = await lint_first(linter, fix_results, run_fixes, job, len(body.data))
    if result.pending is None:
        return json_answer(result.answer), True
    return json_answer(result.checked(await in_pool(linter.pool, run_checks,
                                                    result.pending))), False


async def json_object(request: Request) -> dict[str, Any]:
    """The request's body: a JSON object, within the limits."""
    linter = _linter(request)
    media = media_of(request.headers.get("content-type"), (JSON_MEDIA,))
    data = await read_body(request.receive, request.headers.get("content-length"),
                           linter.limits, linter.watch)
    body_media(media, data, (JSON_MEDIA,))
    return parse_body(data, linter.limits)


async def new(request: Request) -> Response:
    linter = _linter(request)
    job = new_job(await json_object(request), linter.base, linter.limits)
    return SafeJSONResponse(await in_pool(linter.pool, run_news, job))


async def reflect(request: Request) -> Response:
    job = reflect_job(await json_object(request))
    return SafeJSONResponse(await in_pool(_linter(request).pool, run_reflects, job))


async def rule(request: Request) -> Response:
    document = rule_document(request.path_params["code"])
    if document is None:
        raise Problem("not-found", f"no rule {request.path_params['code']!r}")
    if "text/html" in request.headers.get("accept", ""):
        return Response(rule_html(document), media_type="text/html; charset=utf-8",
                        headers=PAGE_HEADERS)
    return JSONResponse(document)


async def healthz(request: Request) -> Response:
    linter = _linter(request)
    pool = linter.pool
    return JSONResponse({"status": "ok", "version": __version__,
                         "run": request.app.state.run_enabled,
                         "workers": {"size": pool.size, "busy": pool.busy,
                                     "waiting": pool.waiting, "restarts": pool.restarts},
                         "cache": linter.cache.stats(),
                         "memo": {**OP_MEMO.stats(), "vetted_shaders": len(VETTED)}})


async def openapi(request: Request) -> Response:
    return JSONResponse(openapi_document())


async def index(request: Request) -> Response:
    return Response(_linter(request).page, media_type="text/html; charset=utf-8",
                    headers=PAGE_HEADERS)


async def problems(request: Request) -> Response:
    return Response(problems_html(), media_type="text/html; charset=utf-8",
                    headers=PAGE_HEADERS)


def create_app(options: Options | None = None, *, limits: Limits | None = None,
               workers: int | None = None, cors_origins: tuple[str, ...] = (),
               run: RunLimits | None = None) -> Starlette:
    """The web linter. ``options`` is the server's configuration (requests may change what
    is reported, never what touches the server); ``workers`` processes check shaders;
    ``run``: serve ``POST /v1/run`` within those limits (off when None)."""
    limits = limits or Limits()
    linter = Linter(options or Options(), limits,
                    WorkerPool(workers or os.cpu_count() or 1, limits), WorkerPool(1, limits),
                    AnswerCache(limits.cache_entries, limits.cache_bytes),
                    BodyWatch(limits.body_timeout), Batcher(), _page())
    middleware = []
    if cors_origins:
        middleware.append(Middleware(CORSMiddleware, allow_origins=list(cors_origins),
                                     allow_methods=["GET", "POST"],
                                     allow_headers=["content-type"], max_age=600))
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        Problem: _problem_response, HTTPException: _http_problem, Exception: _server_error}

    def lint_route(path: str, handler: Callable[[Linter, Body], Awaitable[tuple[Answer, bool]]]
                   ) -> Route:
        return Route(path, LintRoute(path, partial(handler, linter), limits, linter.cache,
                                     linter.watch), methods=["POST"])

    app = Starlette(
        routes=[
            # The lint routes first: they are what a playground calls on every pause.
            lint_route("/v1/check", check),
            lint_route("/v1/fix", fix),
            Route("/", index, methods=["GET"]),
            Route("/healthz", healthz, methods=["GET"]),
            Route("/openapi.json", openapi, methods=["GET"]),
            Route("/v1/new", new, methods=["POST"]),
            Route("/v1/reflect", reflect, methods=["POST"]),
            Route("/v1/rules/{code}", rule, methods=["GET"]),
            Route(PROBLEMS_PATH, problems, methods=["GET"]),
            *([Route("/v1/run", run_route(linter.base, limits, linter.watch, run),
                     methods=["POST"])] if run is not None else []),
            Mount("/static", StaticFiles(packages=[(__package__, "static")]), name="static"),
        ],
        middleware=middleware,
        exception_handlers=handlers,
        lifespan=lifespan,
    )
    app.state.linter = linter
    app.state.run_enabled = run is not None
    return app


async def _problem_response(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Problem)
    return problem_response(exc)


async def _http_problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    slug = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code)
    if slug is None:
        slug = "invalid-request" if exc.status_code < 500 else "internal-error"
    problem = Problem(slug, exc.detail or "")
    problem.status = exc.status_code
    problem.headers = dict(exc.headers or {})
    return problem_response(problem)


async def _server_error(request: Request, exc: Exception) -> Response:
    # Starlette logs the traceback; the client gets a problem document, not a stack.
    return problem_response(Problem("internal-error", "the server failed to handle the request"))
