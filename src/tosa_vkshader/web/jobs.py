"""What a web request asks the pipeline to do, and doing it.

A job is a small picklable value, so the same function runs it in the event loop (lint
only) or in a worker process (anything with shader code). Functions take a list of jobs:
a worker checks every request it takes in one pipeline run (``check_sources``, the batch
entry of the pipeline that ``validate`` uses), so queued GLSL from many requests costs
one glslc process. Nothing here checks anything; the answer is the CLI's JSON shape.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from ..api import Report, source_of
from ..check import check_sources
from ..config import Options
from ..diagnostics import Location, Severity, rule
from ..report.json_report import diagnostic_to_dict, reports_to_dict
from .ops import Prepared, op_attributes, single

REQUEST_PATH = "<request>"
MAX_DIAGNOSTICS = 1000

TRUNCATED = rule(
    "VKS931", "web-diagnostics-truncated", Severity.INFO,
    summary="The web endpoint returned only the first 1000 diagnostics of a request.",
    why="A document with tens of thousands of problems would make a response of many "
        "megabytes that no page can show; errors are kept first, so `ok` stays right. "
        "The command line reports everything.",
    bad='{"input_0_bindng": 0, "input_1_bindng": 1, ... 5000 more}',
    good="tosa-vkshader check attrs.json   # every diagnostic",
)


@dataclass(frozen=True)
class CheckJob:
    # "attributes": payload is the attribute object as parsed from the request;
    # "text": payload is raw JSON text (an attribute object or an op object), whose
    # lines and columns the diagnostics then point into.
    kind: Literal["attributes", "text"]
    payload: Any
    options: Options


@dataclass(frozen=True)
class ReflectJob:
    spirv: bytes
    entry_point: str | None


def attributes_of(job: CheckJob) -> Any:
    """The attribute object the job will check (None when the text does not parse)."""
    if job.kind == "attributes":
        return job.payload
    try:
        value = json.loads(job.payload)
    except (ValueError, RecursionError):
        return None  # the pipeline reports the text's problem itself
    return op_attributes(value)


def needs_worker(job: CheckJob) -> bool:
    """True when checking may start a process (glslc for GLSL/HLSL, spirv-val for SPIR-V)
    or chew on an untrusted binary: any attribute object with shader code."""
    attributes = attributes_of(job)
    if isinstance(attributes, str):  # an op whose implementation_attrs is JSON text
        try:
            attributes = json.loads(attributes)
        except (ValueError, RecursionError):
            return False
    if not isinstance(attributes, dict):
        return False
    code = attributes.get("shader_code")
    return isinstance(code, str) and code != ""


def prepare(job: CheckJob) -> Prepared:
    # Text may hold an op object: the core's JSON reader unwraps it (positions map
    # through the escapes of a string-valued implementation_attrs).
    return single(source_of(job.payload, job.options, REQUEST_PATH), REQUEST_PATH)


def _truncate(report: Report) -> Report:
    """At most MAX_DIAGNOSTICS, the worst first, then in file order, plus one VKS931."""
    found = report.diagnostics
    if len(found) <= MAX_DIAGNOSTICS:
        return report
    ranked = sorted(range(len(found)), key=lambda k: (-found[k].severity, k))
    kept = [found[k] for k in sorted(ranked[:MAX_DIAGNOSTICS])]
    note = TRUNCATED.at("", f"{len(found) - MAX_DIAGNOSTICS} more diagnostics were not "
                            f"returned (the web endpoint returns at most {MAX_DIAGNOSTICS})",
                        hint="fix these first, or run `tosa-vkshader check` locally")
    kept.insert(0, note.located(Location(report.path, 1, 1)))
    return Report(report.path, kept, report.source)


def run_checks(jobs: list[CheckJob]) -> list[dict[str, Any]]:
    """The CLI's ``--format json`` document for each request. Requests with equal options
    are checked together, in one run of the pipeline."""
    prepared = [prepare(job) for job in jobs]
    results: list[dict[str, Any]] = [{} for _ in jobs]
    pending = list(range(len(jobs)))
    while pending:
        options = jobs[pending[0]].options
        group = [k for k in pending if jobs[k].options == options]
        pending = [k for k in pending if k not in group]
        found = iter(check_sources([s for k in group for s in prepared[k].sources], options))
        for k in group:
            report = prepared[k].report([next(found) for _ in prepared[k].sources])
            results[k] = reports_to_dict([_truncate(report)])
    return results


def run_reflects(jobs: list[ReflectJob]) -> list[dict[str, Any]]:
    return [run_reflect(job) for job in jobs]


def run_reflect(job: ReflectJob) -> dict[str, Any]:
    """Reflection of one SPIR-V module (the shape of ``tosa-vkshader reflect --format
    json``) with the reader's diagnostics; ``error`` says why nothing was reflected."""
    from ..spirv import read_module, reflect

    module, diagnostics = read_module(job.spirv, "/spirv")
    reflection = None if module is None else reflect(module, job.entry_point)
    error = None
    if reflection is None:
        error = "the module could not be read"
    elif reflection.entry_point is None:
        error = f"no entry point {job.entry_point!r} in the module" if job.entry_point \
            else "the module has no entry point"
    return {
        "ok": error is None and not any(d.severity.label == "error" for d in diagnostics),
        "reflection": None if reflection is None else reflection.to_dict(),
        "error": error,
        "diagnostics": [diagnostic_to_dict(d) for d in diagnostics],
    }
