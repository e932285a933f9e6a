"""Compile many shaders with as few ``glslc`` processes as possible.

Every request is prepared (entry point, include policy, default ``#version``), looked up
in the cache, and the misses of a run go to one glslc process per distinct macro set
(see :mod:`.runner`). Identical sources are compiled once.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING

from ..cachedir import default_cache_dir
from ..diagnostics import Severity
from ..rule_registry import rule
from .cache import Cache, Entry, StoredDiagnostic
from .compiler import (
    DXC,
    REFERENCE,
    SHADERC,
    CompilerInfo,
    CompilerUnavailable,
    compiler_info,
    info_for,
    locate_dxc,
    locate_reference,
    missing_diagnostic,
)
from .diagnose import ENTRY_POINT_NOT_FOUND
from .expansion import expansion_problem
from .hlsl import exclusive_prefix_scans, glslang_limits
from .hlsl import target_spv as hlsl_target_spv
from .includes import check_includes
from .job import Job, Outcome
from .options import (
    COMPILE_CONFIG,
    DEFAULT_GLSL_VERSION,
    DEFAULT_TARGET_ENV,
    CompileOptions,
    Macro,
    include_roots,
    macro_problems,
)
from .reference_limits import refusals
from .request import CompileRequest, CompileResult
from .scan import declares_local_size, directives, has_version

if TYPE_CHECKING:
    from typing import Any

GLSL_ENTRY_NOT_MAIN = rule(
    "VKS302",
    summary="GLSL shaders must use the entry point `main`, but `entry_point` says otherwise.",
    why="GLSL has no way to rename the entry point: the compiled module's entry point is "
        "always `main`, so the runtime would look for a function that is not there.",
    bad='"entry_point": "compute", "shader_language": "GLSL"',
    good='"entry_point": "main", "shader_language": "GLSL"',
)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Keeps the command line far below ARG_MAX; start-up is amortised long before this.
MAX_INPUTS_PER_PROCESS = 256
_COMPILED = [0]  # distinct shaders this process has compiled (cache misses) so far


def compiled_count() -> int:
    """How many distinct shaders this process has compiled so far (what a progress line
    shows; answers from the compile cache are not counted)."""
    return _COMPILED[0]


# -- preparing sources -------------------------------------------------------------------

def _prepare(request: CompileRequest, opts: CompileOptions, roots: list[str]) -> Job:
    job = Job(0, request)
    found = directives(request.source)
    if request.language == "GLSL" and request.entry_point not in ("", "main"):
        job.pre.append(GLSL_ENTRY_NOT_MAIN.at(
            request.entry_pointer or "", f"entry_point is `{request.entry_point}`, but a GLSL "
                                         "shader's entry point is always `main`",
            hint='set "entry_point": "main"'))
    if request.language == "HLSL" and not _IDENTIFIER.fullmatch(request.effective_entry_point):
        job.pre.append(ENTRY_POINT_NOT_FOUND.at(
            request.entry_pointer or "", f"entry_point {request.entry_point!r} is not a valid "
                                         "HLSL function name"))
        job.blocked = True
    problems = macro_problems(request.macros, request.code_pointer)
    if problems:
        job.pre.extend(problems)
        job.blocked = True
    bomb = expansion_problem(request.source, found, request.code_pointer)
    if bomb is not None:
        job.pre.append(bomb)
        job.blocked = True
    job.includes = check_includes(found, opts.allow_includes, roots, request.code_pointer)
    job.pre.extend(job.includes.diagnostics)
    job.blocked = job.blocked or job.includes.blocked
    text = request.source
    if request.language == "GLSL" and not has_version(found):
        # Like the reference runtime; `#line 1` keeps the user's line numbers (GLSL >= 330
        # numbers the line after `#line N` as N).
        text = f"#version {DEFAULT_GLSL_VERSION}\n#line 1\n" + text
    job.text = text
    return job


def _target_spv(job: Job, info: CompilerInfo, opts: CompileOptions) -> str | None:
    """The SPIR-V version a job is compiled for (HLSL may need an older one than GLSL)."""
    if job.request.language == "HLSL" and info.kind == SHADERC:
        return hlsl_target_spv(info, opts)
    return opts.target_spv


def _cache_key(job: Job, info: CompilerInfo, opts: CompileOptions, roots: list[str]) -> str:
    hlsl = job.request.language == "HLSL"
    material: dict[str, Any] = {
        "compiler": info.identity,
        "language": job.request.language,
        "entry": job.request.effective_entry_point if hlsl else None,
        "env": opts.target_env,
        "spv": _target_spv(job, info, opts),
        "hlsl16": opts.hlsl_16bit_types if hlsl else None,
        "macros": list(opts.macros) + list(job.request.macros),
        "includes": job.includes.files,
        "roots": roots if job.includes.files else [],
        "source": job.text,
    }
    return sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


# -- the public entry point --------------------------------------------------------------------

def compile_many(requests: Sequence[CompileRequest],
                 options: CompileOptions | Any | None = None) -> list[CompileResult]:
    """Compile every request; results are in request order, one per request.

    ``options`` is a :class:`CompileOptions` or the core ``Options`` (read with defaults).
    Problems are diagnostics in the results, never exceptions.
    """
    if options is None:
        opts = CompileOptions()
    elif isinstance(options, CompileOptions):
        opts = options
    else:
        opts = CompileOptions.from_options(options)
    if not requests:
        return []
    # Ops that repeat a shader (a model often does) are prepared, looked up and compiled
    # once; the others get the first one's result with their own pointers.
    first_of: dict[tuple, int] = {}
    distinct: list[CompileRequest] = []
    distinct_index: list[int] = []  # where each distinct request first appears
    for index, request in enumerate(requests):
        key = (request.source, request.language, request.entry_point, request.macros)
        if key not in first_of:
            first_of[key] = len(distinct)
            distinct.append(request)
            distinct_index.append(index)
    first_pointer = requests[0].code_pointer
    roots, notes = include_roots(opts, first_pointer)
    fatal = macro_problems(opts.macros, first_pointer)
    jobs = []
    for index, request in enumerate(distinct):
        job = _prepare(request, opts, roots)
        job.index = index
        if fatal:
            job.pre.extend(COMPILE_CONFIG.at(request.code_pointer, d.message, hint=d.hint)
                           for d in fatal)
            job.blocked = True
        jobs.append(job)
    results: list[CompileResult] = [
        CompileResult(None, list(job.pre), declares_local_size=declares_local_size(
            job.request.source, job.request.language)) for job in jobs]
    todo = [job for job in jobs if not job.blocked]
    cache = Cache(Path(opts.cache_dir) if opts.cache_dir else default_cache_dir(),
                  opts.cache_max_bytes) if opts.cache else None
    if todo:
        _compile_jobs(todo, opts, roots, cache, results)
    shared = results
    results = []
    for request in requests:
        k = first_of[(request.source, request.language, request.entry_point, request.macros)]
        first_time = len(results) == distinct_index[k]
        results.append(shared[k] if first_time else _for_twin(shared[k], distinct[k], request))
    run_notes = list(notes)
    if cache is not None:
        cache.evict()
        problem = cache.problem_diagnostic(first_pointer)
        if problem is not None:
            run_notes.append(problem)
    results[0].diagnostics.extend(run_notes)
    for result in results:  # one rule for callers: SPIR-V only when nothing is wrong
        if any(d.severity is Severity.ERROR for d in result.diagnostics):
            result.spirv = None
    return results


def _for_twin(result: CompileResult, first: CompileRequest,
              request: CompileRequest) -> CompileResult:
    """The result of ``first`` for a request of the same shader at other pointers."""
    pointers = {first.code_pointer: request.code_pointer,
                first.entry_pointer or "": request.entry_pointer or ""}
    return replace(result, diagnostics=[
        replace(d, pointer=pointers.get(d.pointer) or d.pointer) for d in result.diagnostics])


def select_compiler(language: str, opts: CompileOptions,
                    versions: dict[str, str] | None = None) -> CompilerInfo:
    """The compiler for ``language``: the configured ``glslc`` when set; else, for GLSL,
    the reference runtime's compiler (the scenario runner's glslc) when it is installed
    and the target is the reference's own (Vulkan 1.3, default SPIR-V); for HLSL, DXC
    when it is installed (the reference toolchain's HLSL compiler); else shaderc's
    ``glslc`` (the reference GLSL compiler reads no HLSL).
    Raises :class:`CompilerUnavailable`."""
    if opts.glslc:
        info = compiler_info(opts.glslc, opts.timeout, versions)
        if language == "GLSL" or info.kind != REFERENCE:
            return info
        return compiler_info(None, opts.timeout, versions)
    dxc = locate_dxc() if language == "HLSL" else None
    if dxc is not None:
        return info_for(dxc, opts.timeout, versions)
    reference = locate_reference() if language == "GLSL" else None
    if (reference is not None and opts.target_env == DEFAULT_TARGET_ENV
            and not opts.target_spv):
        return info_for(reference, opts.timeout, versions)
    return compiler_info(None, opts.timeout, versions)


def _compile_jobs(todo: list[Job], opts: CompileOptions, roots: list[str],
                  cache: Cache | None, results: list[CompileResult]) -> None:
    versions = cache.load_versions() if cache is not None else {}
    known = dict(versions)
    chosen: dict[str, CompilerInfo | CompilerUnavailable] = {}
    for language in sorted({job.request.language for job in todo}):
        try:
            chosen[language] = select_compiler(language, opts, versions)
        except CompilerUnavailable as exc:
            chosen[language] = exc
    if cache is not None and versions != known:
        cache.save_versions(versions)
    pending: dict[str, list[Job]] = {}
    compiler_of: dict[str, CompilerInfo] = {}
    for job in todo:
        info = chosen[job.request.language]
        if isinstance(info, CompilerUnavailable):
            results[job.index].diagnostics.append(
                missing_diagnostic(job.request.code_pointer, info.diagnostic_message,
                                   job.request.source))
            continue
        macros = tuple(opts.macros) + job.request.macros
        if info.kind == REFERENCE:
            refused = refusals(job, macros, roots)
            if refused:
                results[job.index].diagnostics.extend(refused)
                continue
        job.key = _cache_key(job, info, opts, roots)
        entry = cache.get(job.key) if cache is not None else None
        if entry is not None:
            _apply(results[job.index], job, entry, cached=True, compiler=info)
        else:
            pending.setdefault(job.key, []).append(job)
            compiler_of[job.key] = info
    if not pending:
        return
    reference_jobs: list[Job] = []
    dxc_jobs: list[Job] = []
    # One glslc process per compiler, macro set and SPIR-V version.
    by_macros: dict[tuple[CompilerInfo, tuple[Macro, ...], str | None], list[Job]] = {}
    for key, same in pending.items():
        first, info = same[0], compiler_of[key]
        if info.kind == REFERENCE:
            reference_jobs.append(first)
        elif info.kind == DXC:
            dxc_jobs.append(first)
        else:
            macros = tuple(opts.macros) + first.request.macros
            by_macros.setdefault((info, macros, _target_spv(first, info, opts)),
                                 []).append(first)
    # The compilers' runners, only now that something is to be compiled: a run whose
    # every shader is in the cache loads no process machinery.
    from .dxc import compile_dxc
    from .reference import compile_reference
    from .runner import GroupRunner

    # The compilers that take one file per process.
    for alone, compile_each in ((reference_jobs, compile_reference), (dxc_jobs, compile_dxc)):
        if alone:
            info = compiler_of[alone[0].key]
            outcomes = compile_each(
                alone, info, opts, roots,
                {job.index: tuple(opts.macros) + job.request.macros for job in alone})
            _store(alone, outcomes, info, cache, pending, results)
    for (info, macros, spv), same_macros in by_macros.items():
        for start in range(0, len(same_macros), MAX_INPUTS_PER_PROCESS):
            jobs = same_macros[start:start + MAX_INPUTS_PER_PROCESS]
            with tempfile.TemporaryDirectory(prefix="tosa-vkshader-") as tmp:
                group = GroupRunner(jobs, info, replace(opts, target_spv=spv), roots,
                                    macros, tmp)
                group.run(group.inputs)
            _store(jobs, group.outcomes, info, cache, pending, results)


def _store(jobs: list[Job], outcomes: dict[int, Outcome], info: CompilerInfo,
           cache: Cache | None, pending: dict[str, list[Job]],
           results: list[CompileResult]) -> None:
    _COMPILED[0] += len(jobs)
    for job in jobs:
        outcome = outcomes[job.index]
        if job.request.language == "HLSL" and info.kind == SHADERC:
            found = glslang_limits(job.request.source, outcome.spirv, outcome.diagnostics,
                                   info, job.request.code_pointer)
            if any(d.severity is Severity.ERROR for d in found):
                outcome = Outcome(None, found, outcome.deterministic)
            elif outcome.spirv is not None:
                outcome.spirv = exclusive_prefix_scans(outcome.spirv)
            outcome.diagnostics = found
        entry = Entry(outcome.spirv, tuple(
            StoredDiagnostic.of(d, job.request.entry_pointer or "")
            for d in outcome.diagnostics))
        if cache is not None and outcome.deterministic:
            cache.put(job.key, entry)
        for twin in pending[job.key]:
            _apply(results[twin.index], twin, entry, cached=False, compiler=info)


def _apply(result: CompileResult, job: Job, entry: Entry, cached: bool,
           compiler: CompilerInfo) -> None:
    request = job.request
    result.spirv = entry.spirv
    result.compiler = compiler
    result.cached = cached
    result.diagnostics.extend(d.diagnostic(request.code_pointer, request.entry_pointer or "")
                              for d in entry.diagnostics)
