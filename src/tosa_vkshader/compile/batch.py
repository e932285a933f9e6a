"""Compile many shaders with as few ``glslc`` processes as possible.

All sources of a run go to one process (per distinct macro set). glslc compiles each
input in order, writes ``NAME.spv`` for every one that succeeds and keeps going after
a failure, so one bad shader does not cost the others their results. Messages are
attributed by file name; when that is impossible (messages without a file, a crash, a
timeout, a flood of output) the undecided sources are compiled again in smaller groups,
down to one source per process, which then answers for itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Severity, rule
from .cache import Cache, Entry, StoredDiagnostic, default_cache_dir
from .compiler import CompilerInfo, CompilerUnavailable, compiler_info, missing_diagnostic
from .diagnose import ENTRY_POINT_NOT_FOUND, SourceContext, tensor_cascade, to_diagnostic
from .includes import IncludeResult, check_includes
from .messages import CompilerMessage, parse_output
from .options import DEFAULT_GLSL_VERSION, CompileOptions, Macro
from .process import ProcessOutcome, run_compiler
from .request import CompileRequest, CompileResult
from .scan import directives, has_version

GLSL_ENTRY_NOT_MAIN = rule(
    "VKS302", "glsl-entry-point-not-main", Severity.ERROR,
    summary="GLSL shaders must use the entry point `main`, but `entry_point` says otherwise.",
    why="GLSL has no way to rename the entry point: the compiled module's entry point is "
        "always `main`, so the runtime would look for a function that is not there.",
    bad='"entry_point": "compute", "shader_language": "GLSL"',
    good='"entry_point": "main", "shader_language": "GLSL"',
)
COMPILER_CRASHED = rule(
    "VKS911", "compiler-crashed", Severity.ERROR,
    summary="The compiler crashed or stopped without saying why.",
    why="No SPIR-V means no binding, format or workgroup checks for this shader; the "
        "compiler, not the shader, is the likely culprit.",
    bad="(glslc killed by SIGSEGV while compiling the shader)",
    good="(a working glslc; report the shader to the compiler's maintainers)",
)
COMPILER_TIMEOUT = rule(
    "VKS912", "compiler-timeout", Severity.ERROR,
    summary="Compiling the shader took longer than the time limit.",
    why="A check must finish; a shader that hangs the compiler would hang every commit.",
    bad="(a shader that makes glslc run for minutes)",
    good='[tool.tosa-vkshader]\ncompile-timeout = 120   # if the shader is really that big',
)
COMPILER_FLOOD = rule(
    "VKS913", "compiler-output-flood", Severity.ERROR,
    summary="The compiler printed far too much for one shader; the rest was not read.",
    why="Pages of messages hide the first, real problem; the output is cut and the first "
        "message shown.",
    bad="(a shader producing thousands of errors, or a compiler dumping its built-ins)",
    good="(fix the first error the diagnostic shows, then check again)",
)
COMPILE_CONFIG = rule(
    "VKS915", "compile-config-invalid", Severity.ERROR,
    summary="A compile setting (macro, include directory, target) is unusable.",
    why="Compiling with a setting silently dropped would check a different shader than "
        "the one that ships; a macro value with a line break could inject directives.",
    bad='[tool.tosa-vkshader]\nmacros = { "1X" = "a\\n#include \\"/etc/passwd\\"" }',
    good='[tool.tosa-vkshader]\nmacros = { USE_FP16 = "1" }',
)

MAX_DIAGNOSTICS_PER_SHADER = 50
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPIRV_MAGIC = (0x07230203).to_bytes(4, "little")


@dataclass
class _Job:
    index: int
    request: CompileRequest
    pre: list[Diagnostic] = field(default_factory=list)
    includes: IncludeResult = field(default_factory=IncludeResult)
    text: str = ""  # what the compiler sees
    blocked: bool = False
    key: str = ""


@dataclass
class _Outcome:
    spirv: bytes | None
    diagnostics: list[Diagnostic]
    deterministic: bool = True  # False for crashes, timeouts, floods: never cached


# -- configuration ---------------------------------------------------------------------

def _macro_problems(macros: Sequence[Macro], pointer: str) -> list[Diagnostic]:
    problems = []
    for name, value in macros:
        if not _IDENTIFIER.fullmatch(name):
            problems.append(COMPILE_CONFIG.at(pointer, f"macro name {name!r} is not an "
                                                       "identifier"))
        elif value is not None and any(c in value for c in "\r\n\0"):
            problems.append(COMPILE_CONFIG.at(pointer, f"the value of macro `{name}` contains "
                                                       "a line break or NUL",
                                              hint="macro values must be one line"))
    return problems


def _include_roots(opts: CompileOptions, pointer: str) -> tuple[list[str], list[Diagnostic]]:
    roots, problems = [], []
    if not opts.allow_includes:
        return roots, problems
    for folder in opts.include_dirs:
        real = os.path.realpath(folder)
        if os.path.isdir(real):
            roots.append(real)
        else:
            problems.append(COMPILE_CONFIG.at(pointer, f"include directory `{folder}` does "
                                                       "not exist"))
    return roots, problems


# -- preparing sources -------------------------------------------------------------------

def _prepare(request: CompileRequest, opts: CompileOptions, roots: list[str]) -> _Job:
    job = _Job(0, request)
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
    problems = _macro_problems(request.macros, request.code_pointer)
    if problems:
        job.pre.extend(problems)
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


def _cache_key(job: _Job, info: CompilerInfo, opts: CompileOptions, roots: list[str]) -> str:
    hlsl = job.request.language == "HLSL"
    material: dict[str, Any] = {
        "compiler": info.identity,
        "language": job.request.language,
        "entry": job.request.effective_entry_point if hlsl else None,
        "env": opts.target_env,
        "spv": opts.target_spv,
        "hlsl16": opts.hlsl_16bit_types if hlsl else None,
        "macros": list(opts.macros) + list(job.request.macros),
        "includes": job.includes.files,
        "roots": roots if job.includes.files else [],
        "source": job.text,
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


# -- running glslc -------------------------------------------------------------------------

@dataclass
class _Input:
    job: _Job
    printed: str  # the file name glslc prints in messages
    output: Path


class _Group:
    """One temporary directory of inputs compiled with the same options."""

    def __init__(self, jobs: list[_Job], info: CompilerInfo, opts: CompileOptions,
                 roots: list[str], macros: tuple[Macro, ...], tmp: str) -> None:
        self.info, self.opts, self.roots, self.macros, self.tmp = info, opts, roots, macros, tmp
        token = secrets.token_hex(4)  # so a `#line 1 "name"` cannot impersonate another input
        self.inputs: list[_Input] = []
        for k, job in enumerate(jobs):
            folder = Path(tmp, f"d{k}")
            folder.mkdir()
            suffix = ".hlsl" if job.request.language == "HLSL" else ".glsl"
            stem = f"s{k}_{token}"
            with open(folder / (stem + suffix), "w", encoding="utf-8", newline="") as handle:
                handle.write(job.text)
            self.inputs.append(_Input(job, f"d{k}/{stem}{suffix}", Path(tmp, stem + ".spv")))
        self.outcomes: dict[int, _Outcome] = {}

    def argv(self, inputs: list[_Input]) -> list[str]:
        opts = self.opts
        argv = [self.info.path, "-c", f"--target-env={opts.target_env}",
                "-fshader-stage=compute"]
        if opts.target_spv:
            argv.append(f"--target-spv={opts.target_spv}")
        if opts.hlsl_16bit_types and any(i.job.request.language == "HLSL" for i in inputs):
            argv.append("-fhlsl-16bit-types")
        for root in self.roots:
            argv += ["-I", root]
        for name, value in self.macros:
            argv.append(f"-D{name}" if value is None else f"-D{name}={value}")
        for item in inputs:
            request = item.job.request
            if request.language == "HLSL":
                argv += ["-x", "hlsl", f"-fentry-point={request.effective_entry_point}"]
            else:  # GLSL keeps `main`; reset anyway so no HLSL name carries over
                argv += ["-x", "glsl", "-fentry-point=main"]
            argv.append(item.printed)
        return argv

    def run(self, inputs: list[_Input]) -> None:
        for item in inputs:
            item.output.unlink(missing_ok=True)
        limit = self.opts.output_limit * len(inputs)
        outcome = run_compiler(self.argv(inputs), self.tmp, self.opts.timeout, limit)
        undecided = self._settle(inputs, outcome)
        if not undecided:
            return
        failed = outcome.timed_out or outcome.flooded or outcome.crashed
        if failed:
            # glslc works in order: the first input it did not finish is the likely culprit.
            parts = [undecided[:1], undecided[1:]]
        elif len(undecided) < len(inputs):
            parts = [undecided]  # progress: try the rest together again
        else:
            half = len(undecided) // 2
            parts = [undecided[:half], undecided[half:]]
        for part in parts:
            if part:
                self.run(part)

    def _settle(self, inputs: list[_Input], outcome: ProcessOutcome) -> list[_Input]:
        """Record the inputs whose outcome is certain; return the others."""
        if outcome.start_error is not None:
            for item in inputs:
                self._finish(item, _Outcome(None, [COMPILER_CRASHED.at(
                    item.job.request.code_pointer,
                    f"could not run {self.info.path}: {outcome.start_error}")], False))
            return []
        messages = parse_output(outcome.output)
        driver = [m for m in messages if m.tool == "glslc"]
        if driver and not outcome.timed_out and not outcome.flooded:
            text = "; ".join(m.full_text for m in driver)
            for item in inputs:
                self._finish(item, _Outcome(None, [COMPILE_CONFIG.at(
                    item.job.request.code_pointer, f"glslc rejected its options: {text}",
                    hint="check `target-env` and the other compile settings")], False))
            return []
        spirv = {id(item): _read_spirv(item.output) for item in inputs}
        owned: dict[int, list[tuple[CompilerMessage, bool]]] = {id(i): [] for i in inputs}
        by_name = {item.printed: item for item in inputs}
        ambiguous: set[int] = set()
        for message in messages:
            if message.file in by_name:
                owned[id(by_name[message.file])].append((message, True))
                continue
            if len(inputs) == 1:
                candidates = inputs
            elif message.file is not None:  # an included file
                candidates = [i for i in inputs if message.file in i.job.includes.sites]
            else:
                candidates = [i for i in inputs if spirv[id(i)] is None]
            if len(candidates) == 1:
                owned[id(candidates[0])].append((message, False))
            else:
                ambiguous.update(id(i) for i in (candidates or inputs))
        failed = outcome.timed_out or outcome.flooded or outcome.crashed
        # After a failure, an input is complete only if glslc got past it.
        last_seen = max((k for k, i in enumerate(inputs)
                         if spirv[id(i)] is not None or owned[id(i)]), default=-1)
        undecided: list[_Input] = []
        for k, item in enumerate(inputs):
            has_error = any(m.severity == "error" for m, _ in owned[id(item)])
            complete = spirv[id(item)] is not None or has_error
            if failed and spirv[id(item)] is None and k >= last_seen:
                complete = False
            if len(inputs) == 1:
                self._finish(item, self._final(item, spirv[id(item)], owned[id(item)],
                                               outcome))
            elif id(item) in ambiguous or not complete:
                undecided.append(item)
            else:
                self._finish(item, self._build(item, spirv[id(item)], owned[id(item)]))
        return undecided

    def _final(self, item: _Input, spirv: bytes | None,
               owned: list[tuple[CompilerMessage, bool]], outcome: ProcessOutcome) -> _Outcome:
        """The outcome of an input compiled alone."""
        pointer = item.job.request.code_pointer
        if outcome.flooded:
            first = next((m.full_text for m, _ in owned), "")
            return _Outcome(None, [COMPILER_FLOOD.at(
                pointer, f"the compiler printed more than {self.opts.output_limit // 1024} KiB "
                         "for this shader and was stopped" + (f"; it began: {first[:200]}"
                                                               if first else ""))], False)
        if outcome.timed_out:
            return _Outcome(None, [COMPILER_TIMEOUT.at(
                pointer, f"the compiler did not finish within {self.opts.timeout:g} s and was "
                         "stopped", hint="raise `compile-timeout` in [tool.tosa-vkshader] if "
                                         "the shader is really that large")], False)
        if spirv is None and not any(m.severity == "error" for m, _ in owned):
            how = (f"exited with status {outcome.returncode}" if outcome.returncode is not None
                   and outcome.returncode >= 0 else
                   f"was killed by signal {-(outcome.returncode or 0)}")
            return _Outcome(None, [COMPILER_CRASHED.at(
                pointer, f"{self.info.path} {how} without producing SPIR-V or an error "
                         "message")], False)
        return self._build(item, spirv, owned)

    def _build(self, item: _Input, spirv: bytes | None,
               owned: list[tuple[CompilerMessage, bool]]) -> _Outcome:
        request = item.job.request
        ctx = SourceContext(request.source, request.language, request.code_pointer,
                            request.entry_pointer or "", request.effective_entry_point,
                            self.info, item.job.includes.sites)
        diags = tensor_cascade([to_diagnostic(m, ctx, own) for m, own in owned])
        if len(diags) > MAX_DIAGNOSTICS_PER_SHADER:
            hidden = len(diags) - MAX_DIAGNOSTICS_PER_SHADER
            diags = diags[:MAX_DIAGNOSTICS_PER_SHADER] + [COMPILER_FLOOD.at(
                request.code_pointer, f"{hidden} further compiler messages not shown",
                severity=Severity.WARNING)]
        if any(d.code == ENTRY_POINT_NOT_FOUND.code for d in diags):
            spirv = None  # glslc made up an empty function of that name
        if any(d.severity == Severity.ERROR for d in diags):
            spirv = None
        return _Outcome(spirv, diags)

    def _finish(self, item: _Input, outcome: _Outcome) -> None:
        self.outcomes[item.job.index] = outcome


def _read_spirv(path: Path) -> bytes | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    if len(data) < 20 or len(data) % 4 or data[:4] != _SPIRV_MAGIC:
        return None  # a partial write (the compiler was killed) is no result
    return data


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
    first_pointer = requests[0].code_pointer
    roots, notes = _include_roots(opts, first_pointer)
    fatal = _macro_problems(opts.macros, first_pointer)
    jobs = []
    for index, request in enumerate(requests):
        job = _prepare(request, opts, roots)
        job.index = index
        if fatal:
            job.pre.extend(COMPILE_CONFIG.at(request.code_pointer, d.message, hint=d.hint)
                           for d in fatal)
            job.blocked = True
        jobs.append(job)
    results: list[CompileResult] = [CompileResult(None, list(job.pre)) for job in jobs]
    todo = [job for job in jobs if not job.blocked]
    cache = Cache(Path(opts.cache_dir) if opts.cache_dir else default_cache_dir(),
                  opts.cache_max_bytes) if opts.cache else None
    if todo:
        _compile_jobs(todo, opts, roots, cache, results)
    run_notes = list(notes)
    if cache is not None:
        cache.evict()
        problem = cache.problem_diagnostic(first_pointer)
        if problem is not None:
            run_notes.append(problem)
    results[0].diagnostics.extend(run_notes)
    return results


def _compile_jobs(todo: list[_Job], opts: CompileOptions, roots: list[str],
                  cache: Cache | None, results: list[CompileResult]) -> None:
    versions = cache.load_versions() if cache is not None else {}
    known = dict(versions)
    try:
        info = compiler_info(opts.glslc, opts.timeout, versions)
    except CompilerUnavailable as exc:
        for job in todo:
            results[job.index].diagnostics.append(
                missing_diagnostic(job.request.code_pointer, exc.diagnostic_message))
        return
    if cache is not None and versions != known:
        cache.save_versions(versions)
    pending: dict[str, list[_Job]] = {}
    for job in todo:
        job.key = _cache_key(job, info, opts, roots)
        entry = cache.get(job.key) if cache is not None else None
        if entry is not None:
            _apply(results[job.index], job, entry, cached=True)
        else:
            pending.setdefault(job.key, []).append(job)
    if not pending:
        return
    by_macros: dict[tuple[Macro, ...], list[_Job]] = {}
    for same in pending.values():
        first = same[0]
        by_macros.setdefault(tuple(opts.macros) + first.request.macros, []).append(first)
    for macros, jobs in by_macros.items():
        with tempfile.TemporaryDirectory(prefix="tosa-vkshader-") as tmp:
            group = _Group(jobs, info, opts, roots, macros, tmp)
            group.run(group.inputs)
        for job in jobs:
            outcome = group.outcomes[job.index]
            entry = Entry(outcome.spirv, tuple(
                StoredDiagnostic.of(d, job.request.entry_pointer or "")
                for d in outcome.diagnostics))
            if cache is not None and outcome.deterministic:
                cache.put(job.key, entry)
            for twin in pending[job.key]:
                _apply(results[twin.index], twin, entry, cached=False)


def _apply(result: CompileResult, job: _Job, entry: Entry, cached: bool) -> None:
    request = job.request
    result.spirv = entry.spirv
    result.cached = cached
    result.diagnostics.extend(d.diagnostic(request.code_pointer, request.entry_pointer or "")
                              for d in entry.diagnostics)
