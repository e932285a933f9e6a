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

from ..api import Report, read_source, source_of
from ..check import check_sources
from ..config import Options
from ..diagnostics import Location, Severity, rule
from ..report.json_report import diagnostic_to_dict, reports_to_dict
from .ops import Prepared, single

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


@dataclass(frozen=True, slots=True)
class CheckJob:
    # "attributes": payload is the attribute object as parsed from the request;
    # "json": JSON text (attributes, an op or a list of ops) and "mlir": TOSA MLIR text,
    # str or the body's bytes, whose lines and columns the diagnostics then point into.
    kind: Literal["attributes", "json", "mlir"]
    payload: Any
    options: Options


@dataclass(frozen=True, slots=True)
class FixJob:
    text: str  # JSON text of an attribute or op object
    options: Options


@dataclass(frozen=True, slots=True)
class NewJob:
    language: str  # GLSL, HLSL or SPIR-V
    source: str | None  # GLSL/HLSL text
    spirv: bytes | None
    entry_point: str | None
    name: str | None
    format_of: tuple[tuple[str, str], ...]
    workgroup_sizes: tuple[int, ...] | None
    options: Options


@dataclass(frozen=True, slots=True)
class ReflectJob:
    spirv: bytes
    entry_point: str | None


def prepare(job: CheckJob) -> Prepared:
    """The job's input read into ops (parsed, nothing checked yet)."""
    if job.kind == "mlir":
        from ..sources.mlir_source import read_mlir

        return single(read_mlir(job.payload, REQUEST_PATH, job.options), REQUEST_PATH)
    if job.kind == "attributes":
        return single(source_of(job.payload, job.options, REQUEST_PATH), REQUEST_PATH)
    # JSON text may hold an op object or a list of ops: the core's JSON reader unwraps
    # them (positions map through the escapes of a string-valued implementation_attrs).
    # Read as `check` reads a file: JSON without any op key is skipped (VKS935).
    return single(read_source(job.payload, REQUEST_PATH, job.options), REQUEST_PATH)


def needs_worker(prepared: Prepared) -> bool:
    """True when checking may start a process (glslc for GLSL/HLSL, spirv-val for SPIR-V)
    or chew on an untrusted binary: any op of the request, wherever it sits (a list, an
    MLIR module), whose attribute object has shader code. Decided on what was read, not
    on the request's outer shape."""
    for source in prepared.sources:
        for op in source.ops:
            attrs = op.attributes
            if isinstance(attrs, dict) and isinstance(attrs.get("shader_code"), str) \
                    and attrs["shader_code"] != "":
                return True
    return False


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


def _check(jobs: list[CheckJob], prepared: list[Prepared]) -> list[dict[str, Any]]:
    """The CLI's ``--format json`` document for each request. Requests with equal options
    are checked together, in one run of the pipeline."""
    results: list[dict[str, Any]] = [{} for _ in jobs]
    pending = list(range(len(jobs)))
    while pending:
        options = jobs[pending[0]].options
        group = [k for k in pending if jobs[k].options is options or jobs[k].options == options]
        pending = [k for k in pending if k not in group]
        found = iter(check_sources([s for k in group for s in prepared[k].sources], options))
        for k in group:
            report = prepared[k].report([next(found) for _ in prepared[k].sources])
            results[k] = reports_to_dict([_truncate(report)])
    return results


def run_checks(jobs: list[CheckJob]) -> list[dict[str, Any]]:
    """Check the requests, shader code included (in a compile worker)."""
    return _check(jobs, [prepare(job) for job in jobs])


def lint_only(jobs: list[CheckJob]) -> list[dict[str, Any] | None]:
    """Check the requests that need no compiler (in the event loop or a lint worker);
    None for each one that does, to be sent to a compile worker instead."""
    prepared = [prepare(job) for job in jobs]
    lint = [k for k, p in enumerate(prepared) if not needs_worker(p)]
    results: list[dict[str, Any] | None] = [None] * len(jobs)
    for k, result in zip(lint, _check([jobs[k] for k in lint], [prepared[k] for k in lint]),
                         strict=True):
        results[k] = result
    return results


def run_fixes(jobs: list[FixJob]) -> list[dict[str, Any]]:
    """``tosa-vkshader fix --diff`` for each request: the fixed document, the diff, what
    was changed and what could not be fixed. Never compiles (no ``--embed``)."""
    from ..codegen.fix import fix_text

    results = []
    for job in jobs:
        result = fix_text(job.text, REQUEST_PATH, options=job.options)
        results.append({
            "ok": result.ok,
            "changed": result.changed,
            "fixed": result.fixed,
            "diff": result.diff(),
            "changes": list(result.changes),
            "diagnostics": [diagnostic_to_dict(d) for d in result.diagnostics],
        })
    return results


def run_news(jobs: list[NewJob]) -> list[dict[str, Any]]:
    """``tosa-vkshader new`` for each request: the checked attribute object (and the op
    object when a name is given), or the diagnostics saying why there is none."""
    from ..codegen import CodegenError, op_from_shader

    results = []
    for job in jobs:
        shader: Any = job.spirv if job.spirv is not None else job.source
        try:
            op = op_from_shader(shader, name=job.name,
                                language=None if job.spirv is not None else job.language,
                                entry_point=job.entry_point, format_of=job.format_of,
                                workgroup_sizes=job.workgroup_sizes, options=job.options)
        except CodegenError as exc:
            results.append({"ok": False, "attributes": None, "op": None, "text": None,
                            "diagnostics": [diagnostic_to_dict(d) for d in exc.diagnostics]})
            continue
        document = op.to_op_object() if job.name else op.attrs
        results.append({"ok": True, "attributes": op.attrs,
                        "op": op.to_op_object() if job.name else None,
                        "text": json.dumps(document, indent=2, ensure_ascii=False) + "\n",
                        "diagnostics": [diagnostic_to_dict(d) for d in op.notes]})
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
