"""Compile HLSL with DXC (DirectXShaderCompiler), when it is installed.

DXC is the HLSL compiler of the reference toolchain (compute shaders as ``cs_6_2`` with
16-bit types); it compiles what glslang cannot (VKS311). One file per process::

    dxc -spirv -T cs_6_2 -E ENTRY -enable-16bit-types -fspv-target-env=vulkan1.3
        [-DNAME=VALUE ...] [-I DIR] -Fo shader.spv shader.hlsl

It prints clang-style messages, ``shader.hlsl:LINE:COL: error: text``, each followed by
the source line and a caret (ignored here); they become the usual diagnostics (VKS300,
VKS301, VKS307), positioned in the shader.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..diagnostics import Severity
from .compiler import CompilerInfo
from .diagnose import ENTRY_POINT_NOT_FOUND, SourceContext, to_diagnostic
from .job import Job, Outcome
from .messages import CompilerMessage
from .options import CompileOptions, Macro
from .process import run_compiler
from .reference import each_in_own_process, limited, process_failure
from .runner import COMPILER_CRASHED, read_spirv

SHADER_MODEL = "cs_6_2"  # the reference's: Shader Model 6.2 has the 16-bit types
_SOURCE = "shader.hlsl"
_MESSAGE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?:fatal )?"
                      r"(?P<sev>error|warning): (?P<text>.*)$")


def dxc_argv(info: CompilerInfo, entry_point: str, opts: CompileOptions,
             macros: tuple[Macro, ...], roots: list[str]) -> list[str]:
    argv = [info.path, "-spirv", "-T", SHADER_MODEL, "-E", entry_point,
            f"-fspv-target-env={opts.target_env}"]
    if opts.hlsl_16bit_types:
        argv.append("-enable-16bit-types")
    for name, value in macros:
        argv.append(f"-D{name}" if value is None else f"-D{name}={value}")
    for root in roots:
        argv += ["-I", root]
    return [*argv, "-Fo", "shader.spv", _SOURCE]


def parse_dxc_output(output: str) -> list[CompilerMessage]:
    """The error and warning lines (notes, the echoed source and carets are left out)."""
    messages = []
    for line in output.splitlines():
        match = _MESSAGE.match(line.rstrip())
        if match is not None:
            messages.append(CompilerMessage(
                match.group("file"), int(match.group("line")), int(match.group("col")),
                match.group("sev"), match.group("text").strip()))
    return messages


def compile_dxc(jobs: list[Job], info: CompilerInfo, opts: CompileOptions, roots: list[str],
                macros_of: dict[int, tuple[Macro, ...]]) -> dict[int, Outcome]:
    """One outcome per job (by ``job.index``); every job is HLSL."""
    def one(job: Job, folder: Path) -> Outcome:
        argv = dxc_argv(info, job.request.effective_entry_point, opts,
                        macros_of[job.index], roots)
        done = run_compiler(argv, str(folder), opts.timeout, opts.output_limit,
                            opts.memory_limit)
        pointer = job.request.code_pointer
        failed = process_failure(done, info, opts, pointer)
        if failed is not None:
            return failed
        spirv = read_spirv(folder / "shader.spv")
        request = job.request
        ctx = SourceContext(request.source, "HLSL", pointer, request.entry_pointer or "",
                            request.effective_entry_point, info, job.includes.sites)
        diags = []
        for message in parse_dxc_output(done.output):
            if "missing entry point" in message.text:
                diags.append(ENTRY_POINT_NOT_FOUND.at(
                    ctx.entry_pointer, f"the HLSL source has no function "
                                       f"`{ctx.entry_point}` (from entry_point)"))
            else:
                diags.append(to_diagnostic(message, ctx, Path(message.file or "").name
                                           == _SOURCE))
        if done.returncode != 0 and not diags:
            rc = done.returncode or 0
            text = " ".join(done.output.split())[:300]
            diags.append(COMPILER_CRASHED.at(
                pointer, f"{info.path} exited with status {rc} without an error message"
                         + (f": {text}" if text else "")))
        diags = limited(diags, pointer)
        if done.returncode != 0 or any(d.severity is Severity.ERROR for d in diags):
            spirv = None
        return Outcome(spirv, diags)

    return each_in_own_process(jobs, _SOURCE, one)
