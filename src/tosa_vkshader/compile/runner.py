"""Run glslc over a group of inputs and decide, for each, what it produced.

glslc compiles its inputs in order, writes ``NAME.spv`` for each one that succeeds and
keeps going after a failure, so one bad shader does not cost the others their results.
Messages are attributed by file name; when that is impossible (messages without a file,
a crash, a timeout, a flood of output) the undecided inputs are compiled again in
smaller groups, down to one input per process, which then answers for itself.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostic, Severity
from ..rule_registry import rule
from .compiler import CompilerInfo
from .diagnose import ENTRY_POINT_NOT_FOUND, SourceContext, tensor_cascade, to_diagnostic
from .job import Job, Outcome
from .messages import CompilerMessage, parse_output
from .options import COMPILE_CONFIG, CompileOptions, Macro
from .process import ProcessOutcome, run_compiler

COMPILER_CRASHED = rule(
    "VKS911",
    summary="The compiler crashed or stopped without saying why.",
    why="No SPIR-V means no binding, format or workgroup checks for this shader; the "
        "compiler, not the shader, is the likely culprit.",
    bad="(glslc killed by SIGSEGV while compiling the shader)",
    good="(a working glslc; report the shader to the compiler's maintainers)",
)
COMPILER_TIMEOUT = rule(
    "VKS912",
    summary="Compiling the shader took longer than the time limit.",
    why="A check must finish; a shader that hangs the compiler would hang every commit.",
    bad="(a shader that makes glslc run for minutes)",
    good='[tool.tosa-vkshader]\ncompile-timeout = 120   # if the shader is really that big',
)
COMPILER_FLOOD = rule(
    "VKS913",
    summary="The compiler printed far too much for one shader; the rest was not read.",
    why="Pages of messages hide the first, real problem; the output is cut and the first "
        "message shown.",
    bad="(a shader producing thousands of errors, or a compiler dumping its built-ins)",
    good="(fix the first error the diagnostic shows, then check again)",
)
COMPILER_MEMORY = rule(
    "VKS942",
    summary="Compiling the shader needed more memory than the limit (2 GiB by default).",
    why="A few lines of nested macros can make the compiler allocate gigabytes; every "
        "compiler process runs with a cap (`compile-memory-limit`, bytes of address "
        "space) so that one shader cannot take the machine or the server.",
    bad="#define A x x x x x x x x\n#define B A A A A A A A A\n... (nested ten deep)",
    good='[tool.tosa-vkshader]\ncompile-memory-limit = 4294967296   # if the shader really '
         'needs it',
)

MAX_DIAGNOSTICS_PER_SHADER = 50
_SPIRV_MAGIC = (0x07230203).to_bytes(4, "little")


@dataclass(slots=True)
class _Input:
    job: Job
    printed: str  # the file name glslc prints in messages
    output: Path


class GroupRunner:
    """One temporary directory of inputs compiled with the same options."""

    def __init__(self, jobs: list[Job], info: CompilerInfo, opts: CompileOptions,
                 roots: list[str], macros: tuple[Macro, ...], tmp: str) -> None:
        self.info, self.opts, self.roots, self.macros, self.tmp = info, opts, roots, macros, tmp
        token = secrets.token_hex(4)  # so a `#line 1 "name"` cannot impersonate another input
        self.inputs: list[_Input] = []
        for k, job in enumerate(jobs):
            folder = Path(tmp, f"d{k}")
            folder.mkdir()
            suffix = ".hlsl" if job.request.language == "HLSL" else ".glsl"
            stem = f"s{k}_{token}"
            # A lone surrogate from JSON ("\\ud800") is written as "?": columns stay put.
            with open(folder / (stem + suffix), "w", encoding="utf-8", errors="replace",
                      newline="") as handle:
                handle.write(job.text)
            self.inputs.append(_Input(job, f"d{k}/{stem}{suffix}", Path(tmp, stem + ".spv")))
        self.outcomes: dict[int, Outcome] = {}

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
        outcome = run_compiler(self.argv(inputs), self.tmp, self.opts.timeout, limit,
                               self.opts.memory_limit)
        undecided = self._settle(inputs, outcome)
        if not undecided:
            return
        failed = (outcome.timed_out or outcome.flooded or outcome.crashed
                  or outcome.out_of_memory)
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
                self._finish(item, Outcome(None, [COMPILER_CRASHED.at(
                    item.job.request.code_pointer,
                    f"could not run {self.info.path}: {outcome.start_error}")], False))
            return []
        messages = parse_output(outcome.output)
        driver = [m for m in messages if m.tool == "glslc"]
        if driver and not outcome.timed_out and not outcome.flooded:
            text = "; ".join(m.full_text for m in driver)
            for item in inputs:
                self._finish(item, Outcome(None, [COMPILE_CONFIG.at(
                    item.job.request.code_pointer, f"glslc rejected its options: {text}",
                    hint="check `target-env` and the other compile settings")], False))
            return []
        spirv = {id(item): read_spirv(item.output) for item in inputs}
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
               owned: list[tuple[CompilerMessage, bool]], outcome: ProcessOutcome) -> Outcome:
        """The outcome of an input compiled alone."""
        pointer = item.job.request.code_pointer
        if outcome.flooded:
            first = next((m.full_text for m, _ in owned), "")
            return Outcome(None, [COMPILER_FLOOD.at(
                pointer, f"the compiler printed more than {self.opts.output_limit // 1024} KiB "
                         "for this shader and was stopped" + (f"; it began: {first[:200]}"
                                                               if first else ""))], False)
        if outcome.out_of_memory:
            return Outcome(None, [out_of_memory(pointer, self.opts)], False)
        if outcome.timed_out:
            return Outcome(None, [COMPILER_TIMEOUT.at(
                pointer, f"the compiler did not finish within {self.opts.timeout:g} s and was "
                         "stopped", hint="raise `compile-timeout` in [tool.tosa-vkshader] if "
                                         "the shader is really that large")], False)
        if spirv is None and not any(m.severity == "error" for m, _ in owned):
            how = (f"exited with status {outcome.returncode}" if outcome.returncode is not None
                   and outcome.returncode >= 0 else
                   f"was killed by signal {-(outcome.returncode or 0)}")
            return Outcome(None, [COMPILER_CRASHED.at(
                pointer, f"{self.info.path} {how} without producing SPIR-V or an error "
                         "message")], False)
        return self._build(item, spirv, owned)

    def _build(self, item: _Input, spirv: bytes | None,
               owned: list[tuple[CompilerMessage, bool]]) -> Outcome:
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
        return Outcome(spirv, diags)

    def _finish(self, item: _Input, outcome: Outcome) -> None:
        self.outcomes[item.job.index] = outcome


def out_of_memory(pointer: str, opts: CompileOptions) -> Diagnostic:
    """A compiler process stopped at ``compile-memory-limit`` (whichever compiler ran)."""
    return COMPILER_MEMORY.at(
        pointer, f"the compiler reached the memory limit of {_mebibytes(opts.memory_limit)} "
                 "and was stopped",
        hint="a macro that expands to millions of tokens does this; if the shader really "
             "needs more, raise `compile-memory-limit` in [tool.tosa-vkshader]")


def _mebibytes(size: int) -> str:
    return f"{size / 1024 ** 3:g} GiB" if size >= 1024 ** 3 else f"{size / 1024 ** 2:g} MiB"


def read_spirv(path: Path) -> bytes | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    if len(data) < 20 or len(data) % 4 or data[:4] != _SPIRV_MAGIC:
        return None  # a partial write (the compiler was killed) is no result
    return data
