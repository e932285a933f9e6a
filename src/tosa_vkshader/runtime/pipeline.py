"""check -> convert -> read the interface -> write the scenario -> run -> numpy.

Every step is one of the reference tools; this module only decides what to hand them:
the model (HLSL ops compiled and embedded first), the input files in the VGF's layout, the
scenario and the Vulkan environment; and it reads the outputs back with the result types
of the entry function.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Options
from ..diagnostics import Diagnostic, Severity
from ..sources.context import render_tensor
from .errors import RunError
from .interface import Interface, read_interface
from .layout import read_output, write_input
from .model import CustomOpText, Signature, custom_op_texts, read_signature, replace_attrs
from .rules import (
    CONVERTER_FAILED,
    HLSL_EMBEDDED,
    INPUT_MISMATCH,
    PUSH_CONSTANTS_MISMATCH,
    RUNNER_FAILED,
    RUNNER_TIMEOUT,
    UNSUPPORTED_INTERFACE,
)
from .scenario import PushData, build_scenario, input_file, output_file
from .toolchain import Toolchain, find_toolchain, no_device, require_vulkan_driver

if TYPE_CHECKING:
    import numpy as np

DEFAULT_TIMEOUT = 60.0
_TOOL_TIMEOUT = 60.0  # the converter and vgf_dump take a fraction of a second
_DRIVER_ERRORS = ("ErrorIncompatibleDriver", "ErrorInitializationFailed",
                  "libvulkan.so", "Failed to detect any valid GPUs")


@dataclass
class RunResult:
    outputs: list[np.ndarray]
    notes: list[Diagnostic] = field(default_factory=list)  # warnings and notes
    device: str | None = None  # as the runner names it
    workdir: Path | None = None  # kept only when asked


@dataclass
class _ShaderOp:
    text: CustomOpText
    push_constant_size: int | None  # the reflected block, None without one


def run_model(text: str, inputs: Sequence[np.ndarray], *, path: str | None = None,
              push_constants: bytes | None = None, device: str | None = None,
              timeout: float = DEFAULT_TIMEOUT, options: Options | None = None,
              keep_workdir: bool = False) -> RunResult:
    """Run the MLIR model ``text`` on ``inputs``; :class:`RunError` when it cannot."""
    options = (options or Options()).with_overrides(workgroup_semantics="dispatch")
    tools = find_toolchain()
    device_env = _device_environment(device)
    notes = _check(text, path, options)
    signature = read_signature(text)
    arrays = _matched_inputs(signature, inputs)
    ops = _shader_ops(text, options)
    text, embedded = _embed_hlsl(text, ops, options)
    notes.extend(embedded)
    workdir = Path(tempfile.mkdtemp(prefix="tosa-vkshader-run-"))
    try:
        interface = _convert(tools, text, workdir)
        _match_interface(signature, interface)
        for index, (array, resource) in enumerate(zip(arrays, interface.inputs, strict=True)):
            write_input(array, resource, workdir / input_file(index, resource))
        push = _push_data(ops, interface, push_constants, workdir)
        scenario = build_scenario(interface, "model.vgf", push)
        (workdir / "scenario.json").write_text(json.dumps(scenario, indent=2), encoding="utf-8")
        env = {**os.environ, **tools.layer_environment(workdir), **device_env}
        ran_on = _execute(tools, workdir, env, timeout)
        outputs = [read_output(workdir / "out" / output_file(index, resource), resource,
                               result.dtype or "", result.shape or ())
                   for index, (result, resource) in enumerate(
                       zip(signature.results, interface.outputs, strict=True))]
    except BaseException:
        if not keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
        raise
    if not keep_workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return RunResult(outputs, notes, ran_on, workdir if keep_workdir else None)


def _device_environment(device: str | None) -> dict[str, str]:
    if device is None:
        require_vulkan_driver()
        return {}
    from .devices import select_device

    return select_device(device).environment()


def _check(text: str, path: str | None, options: Options) -> list[Diagnostic]:
    from ..api import validate

    report = validate(text, options, path=path if path and path.endswith(".mlir")
                      else "model.mlir")
    if not report.ok:
        raise RunError(report.diagnostics)
    # The check's notes (how workgroup_sizes is read...) are for `check`; warnings stay.
    return [d for d in report.diagnostics if d.severity is not Severity.INFO]


def _matched_inputs(signature: Signature, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    import numpy as np

    arguments = signature.arguments
    wanted = ", ".join(f"{a.name}: {a.type.text}" for a in arguments)
    if len(inputs) != len(arguments):
        raise RunError([INPUT_MISMATCH.at(
            "", f"@{signature.name} takes {len(arguments)} argument(s) ({wanted}), "
                f"{len(inputs)} input(s) given",
            hint="give one input per argument, in argument order")])
    arrays, problems = [], []
    for index, (value, argument) in enumerate(zip(inputs, arguments, strict=True)):
        array = np.asarray(value)
        given = render_tensor(_element_of(array.dtype), array.shape)
        if array.dtype != np.dtype(argument.dtype or "") or array.shape != argument.shape:
            problems.append(INPUT_MISMATCH.at(
                "", f"input {index} for argument {argument.name}: expected "
                    f"{argument.type.text} ({argument.dtype} {list(argument.shape or ())}), "
                    f"given {given} ({array.dtype} {list(array.shape)})",
                hint=f"np.asarray(x, dtype=np.{argument.dtype}).reshape("
                     f"{tuple(argument.shape or ())})"))
        arrays.append(array)
    if problems:
        raise RunError(problems)
    return arrays


def _element_of(dtype: np.dtype) -> str:
    from .model import NUMPY_DTYPES

    names = {v: k for k, v in reversed(list(NUMPY_DTYPES.items()))}
    return names.get(str(dtype), str(dtype))


def _spirv_of(attrs: dict, options: Options) -> bytes | None:
    from ..compile import CompileOptions, CompileRequest, compile_many

    language, code = attrs.get("shader_language"), attrs.get("shader_code")
    if not isinstance(code, str):
        return None
    if language == "SPIR-V":
        try:
            return base64.b64decode(code, validate=True)
        except ValueError:
            return None
    if language not in ("GLSL", "HLSL"):
        return None
    entry = attrs.get("entry_point")
    request = CompileRequest(code, language, entry_point=entry if isinstance(entry, str) and
                             entry else "main")
    return compile_many([request], CompileOptions.from_options(options))[0].spirv


def _shader_ops(text: str, options: Options) -> list[_ShaderOp]:
    from ..spirv import read_module, reflect

    found = []
    for op in custom_op_texts(text):
        spirv = _spirv_of(op.attrs, options)
        size = None
        module = read_module(spirv)[0] if spirv is not None else None
        if module is not None:
            entry = op.attrs.get("entry_point")
            block = reflect(module, entry if isinstance(entry, str) else None).push_constants
            size = block.size if block is not None else None
        found.append(_ShaderOp(op, size))
    return found


def _embed_hlsl(text: str, ops: list[_ShaderOp], options: Options
                ) -> tuple[str, list[Diagnostic]]:
    hlsl = [(index, op) for index, op in enumerate(ops)
            if op.text.attrs.get("shader_language") == "HLSL"]
    if not hlsl:
        return text, []
    from ..codegen.emit import mlir_string
    from ..codegen.fix import fix_attributes

    changes, notes = [], []
    for index, op in hlsl:
        fixed = fix_attributes(dict(op.text.attrs), embed_spirv=True, options=options)
        if fixed is None:  # cannot happen after a clean check; keep the runtime's verdict
            continue
        changes.append((op.text, mlir_string(json.dumps(fixed))[1:-1]))
        notes.append(HLSL_EMBEDDED.at(
            "", f"custom op {index}: the HLSL shader was compiled by tosa-vkshader and "
                "embedded as SPIR-V before converting (the reference runtime cannot compile "
                "HLSL)", hint="tosa-vkshader fix FILE --embed spirv does the same in the "
                              "model's source"))
    return (replace_attrs(text, changes) if changes else text), notes


def _run_tool(command: list[str], cwd: Path, timeout: float,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          errors="replace", timeout=timeout, check=False)


def _tail(output: str, lines: int = 12) -> str:
    kept = [line for line in output.splitlines() if line.strip()]
    errors = [line for line in kept if "ERROR" in line or "error" in line]
    chosen = errors or kept
    return "\n".join(chosen[-lines:])


def _convert(tools: Toolchain, text: str, workdir: Path) -> Interface:
    (workdir / "model.mlir").write_text(text, encoding="utf-8")
    try:
        done = _run_tool([tools.model_converter, "-i", "model.mlir", "-o", "model.vgf"],
                         workdir, _TOOL_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        raise RunError([CONVERTER_FAILED.at(
            "", f"model-converter did not finish within {_TOOL_TIMEOUT:g} s")]) from exc
    if done.returncode != 0 or not (workdir / "model.vgf").is_file():
        raise RunError([CONVERTER_FAILED.at(
            "", f"model-converter exited with {done.returncode}:\n"
                f"{_tail(done.stderr + done.stdout)}")])
    done = _run_tool([tools.vgf_dump, "-i", "model.vgf", "-o", "dump.json"], workdir,
                     _TOOL_TIMEOUT)
    if done.returncode != 0:
        raise RunError([CONVERTER_FAILED.at(
            "", f"vgf_dump could not read the VGF the converter wrote (exit "
                f"{done.returncode}):\n{_tail(done.stderr + done.stdout)}")])
    return read_interface(json.loads((workdir / "dump.json").read_text(encoding="utf-8")))


def _match_interface(signature: Signature, interface: Interface) -> None:
    problems = []
    if len(interface.inputs) != len(signature.arguments):
        problems.append(f"the VGF has {len(interface.inputs)} input(s) for the "
                        f"{len(signature.arguments)} argument(s) of @{signature.name} (an "
                        "argument used twice or not at all)")
    if len(interface.outputs) != len(signature.results):
        problems.append(f"the VGF has {len(interface.outputs)} output(s) for the "
                        f"{len(signature.results)} result(s) of @{signature.name}: the "
                        "converter drops the output of an op result that nothing consumes")
    if problems:
        raise RunError([UNSUPPORTED_INTERFACE.at(
            "", "; ".join(problems),
            hint="return every result of every custom op, and use every argument once")])


def _push_data(ops: list[_ShaderOp], interface: Interface, data: bytes | None,
               workdir: Path) -> PushData | None:
    import numpy as np

    declaring = [(index, op) for index, op in enumerate(ops)
                 if op.push_constant_size is not None]
    if data is None:
        if declaring:
            index, op = declaring[0]
            raise RunError([PUSH_CONSTANTS_MISMATCH.at(
                "", f"custom op {index} declares a {op.push_constant_size}-byte push-constant "
                    "block and no --push-constants were given; the converter drops "
                    "push_constants, so the shader would read zeros",
                hint=f"write the {op.push_constant_size} bytes (little-endian) to a file and "
                     "pass --push-constants FILE")])
        return None
    if not declaring:
        raise RunError([PUSH_CONSTANTS_MISMATCH.at(
            "", f"--push-constants gives {len(data)} bytes, but no custom op's shader "
                "declares a push-constant block", hint="leave out --push-constants")])
    wrong = [(i, op) for i, op in declaring if op.push_constant_size != len(data)]
    if wrong:
        raise RunError([PUSH_CONSTANTS_MISMATCH.at(
            "", f"--push-constants gives {len(data)} bytes; custom op {i}'s push-constant "
                f"block is {op.push_constant_size} bytes",
            hint=f"give exactly {op.push_constant_size} bytes") for i, op in wrong])
    modules = interface.compute_modules
    if len(modules) == len(ops):
        targets = tuple(modules[i] for i, _op in declaring)
    else:
        targets = modules
    np.save(workdir / "push_constants.npy", np.frombuffer(data, dtype=np.uint8))
    return PushData("push_constants.npy", len(data), targets)


def _execute(tools: Toolchain, workdir: Path, env: dict[str, str], timeout: float) -> str | None:
    (workdir / "out").mkdir(exist_ok=True)
    command = [tools.scenario_runner, "--scenario", "scenario.json", "--output", "out"]
    try:
        done = _run_tool(command, workdir, timeout, env)
    except subprocess.TimeoutExpired as exc:
        raise RunError([RUNNER_TIMEOUT.at(
            "", f"scenario-runner did not finish within {timeout:g} s and was stopped",
            hint="raise it with --timeout SECONDS, or lower workgroup_sizes")]) from exc
    output = done.stdout + done.stderr
    if done.returncode != 0:
        if any(marker in output for marker in _DRIVER_ERRORS):
            raise RunError([no_device("the Vulkan loader found no usable device "
                                      f"({_tail(output, 2)})")])
        how = f"was killed by signal {-done.returncode}" if done.returncode < 0 else \
            f"exited with {done.returncode}"
        raise RunError([RUNNER_FAILED.at(
            "", f"scenario-runner {how}:\n{_tail(output) or '(no output)'}",
            hint="--keep-workdir keeps scenario.json and the files to reproduce it")])
    return _device_name(output)


def _device_name(log: str) -> str | None:
    for line in log.splitlines():
        if "INFO: Device: " in line:
            return line.split("INFO: Device: ", 1)[1].split(", Type:", 1)[0].strip()
    return None

