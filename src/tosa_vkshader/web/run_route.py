"""``POST /v1/run`` (only with ``serve --allow-run``): run the playground's op on the
server's Vulkan device (lavapipe on a server without a GPU) with random inputs, and
answer what the device showed and a preview of each result.

Off by default: a run starts the reference toolchain on the server. Bounded:

- the body is an op as the page holds it: ``{"text": "<op JSON>"}`` (an op object with
  its ``inputs``/``outputs`` types) or ``{"mlir": "<TOSA MLIR>"}``, with the check's
  ``options`` and an optional integer ``seed``;
- the entry function's arguments and results hold at most ``RunLimits.max_elements``
  elements together (the memory of the files and of the runner's buffers follows from
  that), checked before anything starts;
- the scenario runner is stopped after ``RunLimits.timeout`` seconds;
- a client (its address) runs one op at a time (429), and the server
  ``RunLimits.concurrency`` at a time (503); runs happen in a thread, never in the event
  loop.

The answer: ``ok``, the ``device``, the ``seed`` the inputs were drawn with, each input's
and result's dtype, shape and first values, the ``diagnostics`` (the check's warnings, the
write check's findings, or why it could not run) in the JSON report's form, and the time
it took.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .body import BodyWatch, read_body
from .envelope import parse_body
from .options import Limits, web_options
from .problems import Problem

if TYPE_CHECKING:
    import numpy as np

    from ..config import Options
    from ..diagnostics import Diagnostic
    from ..sources.base import SourceFile

RUN_KEYS = ("text", "mlir", "options", "seed")
PREVIEW = 16  # values shown of each input and result


@dataclass(frozen=True, slots=True)
class RunLimits:
    """What one run may cost the server."""

    timeout: float = 20.0  # seconds the scenario runner may take
    max_elements: int = 1 << 20  # elements of the arguments and results together
    concurrency: int = 1  # runs at a time, all clients together


@dataclass(slots=True)
class RunGate:
    """One run at a time per client, ``limits.concurrency`` in all."""

    limits: RunLimits
    clients: set[str] = field(default_factory=set)

    @contextmanager
    def admitted(self, client: str) -> Iterator[None]:
        if client in self.clients:
            raise Problem("run-in-progress", "this client already has a run in progress; "
                          "wait for its answer", headers={"Retry-After": "2"})
        if len(self.clients) >= self.limits.concurrency:
            raise Problem("server-busy", "the server is running another op; retry later",
                          headers={"Retry-After": "5"})
        self.clients.add(client)
        try:
            yield
        finally:
            self.clients.discard(client)


def run_route(base: Options, limits: Limits, watch: BodyWatch,
              run_limits: RunLimits) -> Callable[[Request], Awaitable[Response]]:
    """The handler of ``POST /v1/run`` (the body read within the server's limits)."""
    gate = RunGate(run_limits)

    async def run(request: Request) -> Response:
        data = await read_body(request.receive, request.headers.get("content-length"),
                               limits, watch)
        body = parse_body(data, limits)
        unknown = sorted(set(body) - set(RUN_KEYS))
        if unknown:
            raise Problem("invalid-field", f"unknown field {unknown[0]!r}; the request may "
                          "have " + ", ".join(RUN_KEYS), field=unknown[0])
        options = web_options(base, body.get("options"), limits)
        seed = body.get("seed", int(time.time() * 1000) % 2**32)
        if type(seed) is not int or not 0 <= seed < 2**32:
            raise Problem("invalid-field", "seed must be an integer from 0 to 2^32 - 1",
                          field="seed")
        text = _model_text(body, options)
        client = request.client.host if request.client else "?"
        with gate.admitted(client):
            answer = await asyncio.to_thread(run_answer, text, options, seed, run_limits)
        return JSONResponse(answer)

    return run


def _model_text(body: dict[str, Any], options: Options) -> str:
    given = [key for key in ("text", "mlir") if key in body]
    if len(given) != 1 or not isinstance(body[given[0]], str):
        raise Problem("invalid-field", "give exactly one of text (an op object, as JSON "
                      "text) or mlir (TOSA MLIR text)", field="text")
    if given[0] == "mlir":
        return body["mlir"]
    from ..codegen import CodegenError
    from ..runtime.op_document import NotAnOpDocument, module_from_op

    try:
        return module_from_op(body["text"], options=options)
    except NotAnOpDocument as exc:
        raise Problem("invalid-field", f"the op {exc}", field="text") from None
    except CodegenError as exc:
        raise Problem("invalid-field", "the op has errors: check it first ("
                      + "; ".join(f"{d.code} {d.message}" for d in exc.diagnostics[:3])
                      + ")", field="text") from None


def run_answer(text: str, options: Options, seed: int, limits: RunLimits) -> dict[str, Any]:
    """Run ``text`` with random inputs drawn from ``seed`` (in a worker thread)."""
    from ..runtime import RunError, run_model
    from ..runtime.model import RunModel

    started = time.monotonic()
    try:
        signature = RunModel.read(text).signature
        tensors = [*signature.arguments, *signature.results]
        elements = sum(math.prod(t.shape or ()) for t in tensors)
        if elements > limits.max_elements:
            raise Problem("invalid-field", f"the op's arguments and results hold {elements} "
                          f"elements; a run here takes at most {limits.max_elements}",
                          field="text")
        inputs = random_inputs([(a.dtype or "", a.shape or ()) for a in signature.arguments],
                               seed)
        result = run_model(text, inputs, options=options, timeout=limits.timeout)
    except RunError as error:
        return _answer(False, seed, started, error.diagnostics, error.source)
    answer = _answer(result.ok, seed, started, result.diagnostics, result.source)
    answer.update(device=result.device,
                  inputs=[_preview(a.name, x) for a, x in zip(signature.arguments, inputs,
                                                               strict=True)],
                  results=[_preview(r.name, y) for r, y in zip(signature.results, result,
                                                               strict=True)])
    return answer


def random_inputs(arguments: list[tuple[str, tuple[int, ...]]], seed: int) -> list[np.ndarray]:
    """An array per argument: floats from a standard normal, integers small (so that
    sums and products stay in range), booleans half true."""
    import numpy as np

    rng = np.random.default_rng(seed)
    arrays = []
    for dtype, shape in arguments:
        kind = np.dtype(dtype).kind
        if kind == "f":
            arrays.append(rng.standard_normal(shape).astype(dtype))
        elif kind == "b":
            arrays.append(rng.integers(0, 2, shape).astype(dtype))
        else:
            low = 0 if kind == "u" else -16
            arrays.append(rng.integers(low, 16, shape).astype(dtype))
    return arrays


def _answer(ok: bool, seed: int, started: float, diagnostics: list[Diagnostic],
            source: SourceFile | None) -> dict[str, Any]:
    from ..api import Report
    from ..report.json_report import reports_to_dict

    [report] = reports_to_dict([Report("model.mlir", diagnostics, source=source)])["files"]
    return {"ok": ok and report["ok"], "seed": seed, "device": None, "inputs": [],
            "results": [], "diagnostics": report["diagnostics"],
            "elapsed_ms": round((time.monotonic() - started) * 1000)}


def _preview(name: str, array: np.ndarray) -> dict[str, Any]:
    flat = array.reshape(-1)
    return {"name": name, "dtype": str(array.dtype), "shape": list(array.shape),
            "values": [v.item() if math.isfinite(float(v)) else str(v)
                       for v in flat[:PREVIEW]],
            "more": max(0, flat.size - PREVIEW)}
