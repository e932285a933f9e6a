"""Compile GLSL with the reference runtime's own compiler: the scenario runner's ``glslc``.

That compiler is not shaderc's CLI: ``glslc --input F --output O --stage compute
[--build-opts " -DNAME=VALUE ..."] [--include DIR]``, one file per process, one include
directory, macros as one space-separated string, no HLSL. Each file gets its own process;
the processes run a few at a time (one per core, at most :data:`MAX_PARALLEL`), and the
content cache (see :mod:`.batch`) means a warm run starts none.

It prints glslang's own messages on stderr::

    Failed to compiled GLSL input to SPIR-V:
    ERROR: 0:4: '' :  syntax error, unexpected SEMICOLON
    ERROR: /abs/include/dir/common.glsl:1: 'q' : undeclared identifier
    ERROR: 2 compilation errors.  No code generated.

(string ``0`` is the shader itself), and its own option errors as ``[ERROR]:text``.
They become the same diagnostics as shaderc's (VKS300 and friends, positioned in the
shader), through :func:`.diagnose.to_diagnostic`.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..diagnostics import Diagnostic, Severity
from .compiler import CompilerInfo
from .diagnose import SourceContext, tensor_cascade, to_diagnostic
from .job import Job, Outcome
from .messages import CompilerMessage
from .options import COMPILE_CONFIG, CompileOptions, Macro
from .process import ProcessOutcome, run_compiler
from .runner import (
    COMPILER_CRASHED,
    COMPILER_FLOOD,
    COMPILER_TIMEOUT,
    MAX_DIAGNOSTICS_PER_SHADER,
    out_of_memory,
    read_spirv,
)

MAX_PARALLEL = 8
_MESSAGE = re.compile(r"^(?P<sev>ERROR|WARNING): (?P<file>.+?):(?P<line>\d+): (?P<text>.*)$")
_SUMMARY = re.compile(r"^(?:ERROR|WARNING): \d+ compilation (?:errors|warnings)\.")
_DRIVER = re.compile(r"^\[ERROR\]:\s*(?P<text>.*)$")
_HEADER = "Failed to compiled GLSL input"  # sic
_OWN_FILE = "0"  # glslang's number for the one source string it was given
# glslang's note that it gave up after an error; shaderc's glslc does not print it
_TERMINATED = "'' : compilation terminated"


def parse_reference_output(output: str) -> list[CompilerMessage]:
    messages: list[CompilerMessage] = []
    for raw in output.splitlines():
        line = raw.rstrip()
        if not line or line.startswith(_HEADER) or _SUMMARY.match(line):
            continue
        match = _MESSAGE.match(line)
        if match and match.group("text").strip() == _TERMINATED and messages:
            continue
        if match:
            messages.append(CompilerMessage(
                match.group("file"), int(match.group("line")), None,
                match.group("sev").lower(), match.group("text").strip()))
            continue
        match = _DRIVER.match(line)
        if match:
            messages.append(CompilerMessage(None, None, None, "error",
                                            match.group("text").strip(), tool="glslc"))
            continue
        if messages and messages[-1].tool is None:  # e.g. a list of extensions
            if len(messages[-1].detail) < 8:
                messages[-1].detail.append(line.strip())
            continue
        messages.append(CompilerMessage(None, None, None, "error", line.strip()[:300]))
    return messages


def _argv(info: CompilerInfo, source: str, output: str, macros: tuple[Macro, ...],
          roots: list[str]) -> list[str]:
    argv = [info.path, "--input", source, "--output", output, "--stage", "compute"]
    if macros:  # the leading space keeps its argument parser from reading "-D" as a flag
        argv += ["--build-opts", " " + " ".join(
            f"-D{name}" if value is None else f"-D{name}={value}" for name, value in macros)]
    if roots:
        argv += ["--include", roots[0]]
    return argv


def compile_reference(jobs: list[Job], info: CompilerInfo, opts: CompileOptions,
                      roots: list[str], macros_of: dict[int, tuple[Macro, ...]]
                      ) -> dict[int, Outcome]:
    """One outcome per job (by ``job.index``); every job is GLSL and passed
    :func:`refusals`. ``macros_of`` gives each job's macros (configured + its own)."""
    def one(job: Job, folder: Path) -> Outcome:
        source, output = folder / "shader.comp", folder / "shader.spv"
        argv = _argv(info, str(source), str(output), macros_of[job.index], roots)
        done = run_compiler(argv, str(folder), opts.timeout, opts.output_limit,
                            opts.memory_limit)
        return _outcome(job, info, opts, done, read_spirv(output))

    return each_in_own_process(jobs, "shader.comp", one)


def each_in_own_process(jobs: list[Job], name: str,
                        compile_one: Callable[[Job, Path], Outcome]) -> dict[int, Outcome]:
    """``compile_one(job, folder)`` for every job, with the job's text written to
    ``folder/name``, a few processes at a time (one per core, at most
    :data:`MAX_PARALLEL`); the outcomes by ``job.index``."""
    workers = max(1, min(len(jobs), os.cpu_count() or 1, MAX_PARALLEL))
    with tempfile.TemporaryDirectory(prefix="tosa-vkshader-") as tmp:
        def one(k: int) -> tuple[int, Outcome]:
            folder = Path(tmp, f"d{k}")
            folder.mkdir()
            with open(folder / name, "w", encoding="utf-8", errors="replace",
                      newline="") as handle:
                handle.write(jobs[k].text)
            return jobs[k].index, compile_one(jobs[k], folder)

        # (imported here: concurrent.futures loads logging, 3 ms of every warm check)
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=workers) as pool:
            return dict(pool.map(one, range(len(jobs))))


def process_failure(done: ProcessOutcome, info: CompilerInfo, opts: CompileOptions,
                    pointer: str) -> Outcome | None:
    """The outcome of a compiler process that did not finish its work (it could not
    start, printed too much, ran out of memory or time); None when it did."""
    if done.start_error is not None:
        return Outcome(None, [COMPILER_CRASHED.at(
            pointer, f"could not run {info.path}: {done.start_error}")], False)
    if done.flooded:
        return Outcome(None, [COMPILER_FLOOD.at(
            pointer, f"the compiler printed more than {opts.output_limit // 1024} KiB for "
                     "this shader and was stopped")], False)
    if done.out_of_memory:
        return Outcome(None, [out_of_memory(pointer, opts)], False)
    if done.timed_out:
        return Outcome(None, [COMPILER_TIMEOUT.at(
            pointer, f"the compiler did not finish within {opts.timeout:g} s and was stopped",
            hint="raise `compile-timeout` in [tool.tosa-vkshader] if the shader is really "
                 "that large")], False)
    return None


def limited(diags: list[Diagnostic], pointer: str) -> list[Diagnostic]:
    """At most :data:`MAX_DIAGNOSTICS_PER_SHADER`, and a note of how many more there were."""
    if len(diags) <= MAX_DIAGNOSTICS_PER_SHADER:
        return diags
    hidden = len(diags) - MAX_DIAGNOSTICS_PER_SHADER
    return diags[:MAX_DIAGNOSTICS_PER_SHADER] + [COMPILER_FLOOD.at(
        pointer, f"{hidden} further compiler messages not shown", severity=Severity.WARNING)]


def _outcome(job: Job, info: CompilerInfo, opts: CompileOptions, done: ProcessOutcome,
             spirv: bytes | None) -> Outcome:
    request = job.request
    pointer = request.code_pointer
    failed = process_failure(done, info, opts, pointer)
    if failed is not None:
        return failed
    messages = parse_reference_output(done.output)
    driver = [m for m in messages if m.tool == "glslc"]
    if any("bad_alloc" in m.full_text for m in driver):
        # Under the address-space limit an allocation fails before the resident size
        # nears it, and this compiler reports the exception as a driver error.
        return Outcome(None, [out_of_memory(pointer, opts)], False)
    if driver:
        text = "; ".join(m.full_text for m in driver)
        return Outcome(None, [COMPILE_CONFIG.at(
            pointer, f"the reference glslc rejected its options: {text}",
            hint="check the macros and include directories in [tool.tosa-vkshader]")], False)
    if done.returncode != 0 and not any(m.severity == "error" for m in messages):
        rc = done.returncode or 0
        how = f"exited with status {rc}" if rc >= 0 else f"was killed by signal {-rc}"
        return Outcome(None, [COMPILER_CRASHED.at(
            pointer, f"{info.path} {how} without producing SPIR-V or an error message")],
            False)
    ctx = SourceContext(request.source, request.language, pointer, request.entry_pointer or "",
                        request.effective_entry_point, info, job.includes.sites)
    diags = limited(tensor_cascade([to_diagnostic(m, ctx, m.file == _OWN_FILE)
                                    for m in messages]), pointer)
    if done.returncode != 0 or any(d.severity == Severity.ERROR for d in diags):
        spirv = None
    return Outcome(spirv, diags)
