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

from ..api import read_parsed, read_source
from ..check import check_sources, finish
from ..checked import Report
from ..config import Options
from ..diagnostics import Diagnostic, Location
from ..report.json_report import diagnostic_to_dict, reports_to_dict
from ..rule_registry import rule
from ..sources.jsontext import pretty_json, rendered_document
from ..sources.read import source_of
from .cache import UNSTABLE_CODES, OpMemo, VettedShaders
from .ops import Prepared, single

REQUEST_PATH = "<request>"
MAX_DIAGNOSTICS = 1000

TRUNCATED = rule(
    "VKS931",
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
    # str or the body's bytes, whose lines and columns the diagnostics then point into;
    # "op": an op object as parsed from the request, checked as the JSON text that
    # pretty_json renders of it (the diagnostics point into that text); "document": the
    # JsonDocument that parse_json made of a pasted body without finding a problem.
    kind: Literal["attributes", "json", "mlir", "op", "document"]
    payload: Any
    options: Options


@dataclass(frozen=True, slots=True)
class FixJob:
    text: str | bytes  # JSON text of an attribute or op object, or a TOSA MLIR model
    options: Options
    model: bool = False


@dataclass(frozen=True, slots=True)
class NewJob:
    language: Literal["GLSL", "HLSL", "SPIR-V"]
    source: str | None  # GLSL/HLSL text
    spirv: bytes | None
    entry_point: str | None
    name: str | None
    format_of: tuple[tuple[str, str], ...]
    workgroup_sizes: tuple[int, ...] | None
    options: Options
    sampler_of: tuple[tuple[str, str], ...] = ()


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
    if job.kind == "document":
        return single(read_parsed(job.payload, REQUEST_PATH, job.options), REQUEST_PATH)
    if job.kind == "op":
        # Parsed from the request already: its rendering is read as a parse of that text
        # would read it, without that parse, unless the parse might find more.
        document = rendered_document(job.payload, REQUEST_PATH,
                                     max_bytes=job.options.max_file_size,
                                     max_depth=job.options.max_depth)
        source = read_parsed(document, REQUEST_PATH, job.options) if document is not None \
            else read_source(pretty_json(job.payload), REQUEST_PATH, job.options)
        return single(source, REQUEST_PATH)
    # JSON text may hold an op object or a list of ops: the core's JSON reader unwraps
    # them (positions map through the escapes of a string-valued implementation_attrs).
    # Read as `check` reads a file: JSON without any op key is skipped (VKS935).
    return single(read_source(job.payload, REQUEST_PATH, job.options), REQUEST_PATH)


@dataclass(frozen=True, slots=True)
class NeedsWorker:
    """What :func:`lint_only` answers for a request it leaves to a compile worker: the
    embedded SPIR-V the request carries (vetted once the worker is done with it), and
    whether it has GLSL/HLSL to compile (such an answer is never kept)."""

    spirv: tuple[str, ...]
    compiles: bool


def needs_worker(prepared: Prepared, vetted: VettedShaders | None = None
                 ) -> NeedsWorker | None:
    """What makes the request a worker's (None when nothing does): any op, wherever it
    sits (a list, an MLIR module), whose attribute object has GLSL/HLSL code (a compiler
    runs), or embedded SPIR-V that no worker has read yet (``vetted``: an untrusted binary
    is read, validated and reflected in a worker the first time). Decided on what was
    read, not on the request's outer shape."""
    spirv: list[str] = []
    compiles = unvetted = False
    for source in prepared.sources:
        for op in source.ops:
            attrs = op.attributes
            if not isinstance(attrs, dict):
                continue
            code = attrs.get("shader_code")
            if not isinstance(code, str) or code == "":
                continue
            if attrs.get("shader_language") == "SPIR-V":
                spirv.append(code)
                unvetted = unvetted or vetted is None or code not in vetted
            elif attrs.get("shader_language") in ("GLSL", "HLSL"):
                compiles = True
    if not (compiles or unvetted):
        return None
    return NeedsWorker(tuple(spirv), compiles)


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


def _check(jobs: list[CheckJob], prepared: list[Prepared], memo: OpMemo | None = None,
           ) -> list[dict[str, Any]]:
    """The CLI's ``--format json`` document for each request. Requests with equal options
    are checked together, in one run of the pipeline; with a ``memo``, a request whose op
    was checked before is answered from it (:class:`~.cache.OpMemo`)."""
    results: list[dict[str, Any]] = [{} for _ in jobs]
    pending = list(range(len(jobs)))
    while pending:
        options = jobs[pending[0]].options
        group = [k for k in pending if jobs[k].options is options or jobs[k].options == options]
        pending = [k for k in pending if k not in group]
        keys: dict[int, tuple] = {}
        remembered: dict[int, list[Diagnostic]] = {}
        if memo is not None:
            for k in group:
                key = _memo_key(prepared[k], options)
                if key is not None:
                    keys[k] = key
                    hit = memo.get(key, options)
                    if hit is not None:
                        remembered[k] = hit
        checked = [k for k in group if k not in remembered]
        found = iter(check_sources([s for k in checked for s in prepared[k].sources], options))
        for k in group:
            if k in remembered:
                source = prepared[k].sources[0]
                diagnostics = [finish(remembered[k], source.ops[0], source.path, options)]
            else:
                diagnostics = [next(found) for _ in prepared[k].sources]
                if memo is not None and k in keys:
                    _remember(memo, keys[k], prepared[k], diagnostics[0], options)
            report = prepared[k].report(diagnostics)
            results[k] = reports_to_dict([_truncate(report)])
    return results


def _memo_key(prepared: Prepared, options: Options) -> tuple | None:
    """What decides the diagnostics of a request of one op without GLSL/HLSL code (None
    for any other request): see :class:`~.cache.OpMemo`."""
    if len(prepared.sources) != 1:
        return None
    source = prepared.sources[0]
    if len(source.ops) != 1 or source.diagnostics:
        return None
    op = source.ops[0]
    attrs = op.attributes
    if not isinstance(attrs, dict) or attrs.get("shader_language") in ("GLSL", "HLSL"):
        return None
    context = op.context
    # The operator's name only as "given or not": no finding that quotes it is kept.
    around = None if context is None else (
        bool(context.operator_name), context.domain_name, context.operands, context.results,
        context.operand_values, context.results_used, context.returned)
    return _attributes_key(attrs), op.base, around, id(options)


def _attributes_key(attrs: dict[str, Any]) -> tuple[str, Any]:
    """The attribute object as JSON (keys in their order), its ``shader_code`` string
    beside it rather than encoded into it: the shader is most of an op's text, and
    escaping it into JSON costs as much as encoding the rest (it is compared as the
    string it is; a null in its place in the JSON stands for it)."""
    code = attrs.get("shader_code")
    if not isinstance(code, str):
        return json.dumps(attrs, ensure_ascii=False), None
    rest = {key: None if key == "shader_code" else value for key, value in attrs.items()}
    return json.dumps(rest, ensure_ascii=False), code


def _remember(memo: OpMemo, key: tuple, prepared: Prepared, found: list[Diagnostic],
              options: Options) -> None:
    """Keep ``found`` (the op's located diagnostics) when each is placed by its pointer
    alone (or where nothing places it, the file's start: the same in any text), none
    depends on the moment and none quotes the operator's name."""
    context = prepared.sources[0].ops[0].context
    name = context.operator_name if context is not None else None
    # A finding about the op itself (its operator_name, domain_name) was placed where the
    # op's context found them, with the very Location it keeps: such a one is not moved.
    about_op = [id(place) for place in context.places.values()] if context else []
    if any(d.code in UNSTABLE_CODES or id(d.location) in about_op
           or (name and (name in d.message or name in (d.hint or ""))) for d in found):
        return
    memo.put(key, options, [d.located(None) for d in found])


def run_checks(jobs: list[CheckJob]) -> list[dict[str, Any]]:
    """Check the requests, shader code included (in a compile worker)."""
    return _check(jobs, [prepare(job) for job in jobs])


def lint_only(jobs: list[CheckJob], vetted: VettedShaders | None = None,
              memo: OpMemo | None = None) -> list[dict[str, Any] | NeedsWorker]:
    """Check the requests that need no worker (in the event loop, or a lint worker) and
    say for each other one why it needs a compile worker (:class:`NeedsWorker`)."""
    prepared = [prepare(job) for job in jobs]
    results: list[dict[str, Any] | NeedsWorker] = [{} for _ in jobs]
    lint = []
    for k, p in enumerate(prepared):
        reason = needs_worker(p, vetted)
        if reason is None:
            lint.append(k)
        else:
            results[k] = reason
    for k, result in zip(lint, _check([jobs[k] for k in lint], [prepared[k] for k in lint],
                                      memo), strict=True):
        results[k] = result
    return results


@dataclass(frozen=True, slots=True)
class FixResult:
    """One ``POST /v1/fix`` answer: ``answer`` as sent, once its ``left`` is known; the
    check of the repaired text that a compile worker must still make (``pending``: it
    has GLSL/HLSL, or SPIR-V no worker has read yet), else None."""

    answer: dict[str, Any]
    pending: CheckJob | None = None

    def checked(self, check: dict[str, Any]) -> dict[str, Any]:
        """The answer with the repaired text's check (the CLI's JSON document of it)."""
        return _with_left(self.answer, check)


def _with_left(answer: dict[str, Any], check: dict[str, Any]) -> dict[str, Any]:
    report = check["files"][0]
    return {**answer, "ok": answer["ok"] and report["ok"], "left": report["diagnostics"]}


def run_fixes(jobs: list[FixJob], vetted: VettedShaders | None = None,
              memo: OpMemo | None = None) -> list[FixResult]:
    """``tosa-vkshader fix --diff`` for each request: the fixed document, the diff, what
    was changed, what could not be done (``diagnostics``) and what is left in the fixed
    document (``left``, its check as ``POST /v1/check`` makes it); ``ok`` as the command
    exits 0: nothing refused and no error left. The repair never compiles (no
    ``--embed``); the check of a repaired text with shader code is left to a compile
    worker (``FixResult.pending``)."""
    from ..codegen.repair import repair

    results = []
    for job in jobs:
        result = repair(job.text, REQUEST_PATH, job.options, shaders=False, model=job.model)
        answer = {
            "ok": result.ok and result.fixed is not None,
            "changed": result.changed,
            "fixed": result.fixed,
            "diff": result.diff(),
            "changes": list(result.changes),
            "diagnostics": [diagnostic_to_dict(d) for d in result.problems],
            "left": [],
        }
        if result.fixed is None:  # refused: nothing was written, nothing is left
            results.append(FixResult(answer))
            continue
        check = CheckJob("mlir" if job.model else "json", result.fixed, job.options)
        found = lint_only([check], vetted, memo)[0]
        if isinstance(found, NeedsWorker):
            results.append(FixResult(answer, check))
        else:
            results.append(FixResult(_with_left(answer, found)))
    return results


def run_news(jobs: list[NewJob]) -> list[dict[str, Any]]:
    """``tosa-vkshader new`` for each request: the checked attribute object (and the op
    object when a name is given), or the diagnostics saying why there is none."""
    from ..codegen import CodegenError, op_from_shader

    results: list[dict[str, Any]] = []
    for job in jobs:
        shader: Any = job.spirv if job.spirv is not None else job.source
        try:
            op = op_from_shader(shader, name=job.name,
                                language=None if job.spirv is not None else job.language,
                                entry_point=job.entry_point, format_of=job.format_of,
                                sampler_of=job.sampler_of,
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
