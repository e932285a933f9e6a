"""HLSL through glslang: the options that make it compile, and what it cannot compile.

Measured with Debian 12's glslc (shaderc 2023.2, glslang 11.13):

- glslang before 12.1 decorates HLSL storage buffers with ``BufferBlock``, which SPIR-V
  1.4 and later forbid, and then fails in its own optimizer for Vulkan 1.2/1.3 targets.
  Compiling HLSL for SPIR-V 1.3 (valid under every Vulkan 1.1+ environment, the
  reference runtime's Vulkan 1.3 included) gives a module that works:
  :func:`target_spv`.
- Some valid HLSL glslang cannot compile at all, with messages that do not say so
  (VKS311, naming DXC, the HLSL compiler the reference toolchain uses):
  :func:`glslang_limits` replaces them. HLSL's explicit 16-bit types (``int16_t``,
  ``uint16_t``, ``float16_t``: "'type' : Expected"); a method call whose overload it
  cannot pick (``RWTexture2D.Load(int3)``: "'__BI_Load' : ambiguous best function");
  ``[[vk::push_constant]]`` on a plain struct variable, which it puts into the
  ``$Global`` uniform buffer instead of a push-constant block (no message at all);
  ``[[vk::combinedImageSampler]]``, which it ignores ("unrecognized attribute"), leaving
  the texture and its sampler two descriptors the runtime cannot bind.
- glslang compiles ``WavePrefixSum`` and ``WavePrefixProduct`` as *inclusive* scans
  (``OpGroupNonUniformIAdd ... InclusiveScan``): every lane gets its own value added in,
  where HLSL defines them exclusive and DXC compiles them so (``ExclusiveScan``), and
  nothing says so. HLSL has no inclusive scan, so every inclusive add or multiply scan
  in glslang's HLSL output is one of these: :func:`exclusive_prefix_scans` makes it the
  exclusive scan the source asked for.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..diagnostics import Diagnostic, InnerPosition
from ..rule_registry import rule
from ..spirv.grammar import OP
from ..spirv.words import instructions, module_bytes, module_words
from .compiler import CompilerInfo
from .diagnose import COMPILE_ERROR
from .options import CompileOptions
from .scan import cleaned

HLSL_BEYOND_GLSLANG = rule(
    "VKS311",
    summary="The HLSL is valid, but glslang (the compiler behind `glslc`) cannot compile "
            "it: DXC can.",
    why="glslang's HLSL front end lacks parts of the language: the explicit 16-bit types "
        "of Shader Model 6.2 (`int16_t`, `uint16_t`, `float16_t`), some overloads "
        "(`RWTexture2D.Load(int3)`), `[[vk::push_constant]]` on a struct variable, "
        "which becomes a member of a `$Global` uniform buffer the runtime never binds, and "
        "`[[vk::combinedImageSampler]]`, which it ignores. "
        "DXC, the HLSL compiler of the reference toolchain, compiles all of them; "
        "tosa-vkshader uses it for HLSL when `dxc` is on PATH.",
    bad="[[vk::push_constant]] Params pc;   // compiled with glslang",
    good="[[vk::push_constant]] ConstantBuffer<Params> pc;   // or any form, with dxc on "
         "PATH",
)

# Before 12.1 glslang decorates HLSL storage buffers with BufferBlock (SPIR-V <= 1.3).
_BUFFER_BLOCK_FIXED = (12, 1, 0)
_SPV_OF_ENV = {"vulkan1.0": (1, 0), "vulkan1.1": (1, 3), "vulkan1.2": (1, 5),
               "vulkan1.3": (1, 6), "vulkan1.4": (1, 6)}
_SIXTEEN_BIT = re.compile(r"\b(?:u?int16_t|float16_t)(?:[1-4](?:x[1-4])?)?\b")
_PUSH_STRUCT = re.compile(
    r"\[\[\s*vk::push_constant\s*\]\]\s*(?!cbuffer\b|ConstantBuffer\b)"
    r"(?P<type>[A-Za-z_]\w*)\s+(?P<name>[A-Za-z_]\w*)\s*(?::[^;]*)?;")
_COMBINED = re.compile(r"\[\[\s*vk::combinedImageSampler\s*\]\]")
_AMBIGUOUS = re.compile(r"ambiguous best function.*\(at `__BI_(?P<method>\w+)`\)")
_DXC_HINT = ("install DXC (the HLSL compiler of the reference toolchain: the Vulkan SDK "
             "or DirectXShaderCompiler releases); with `dxc` on PATH tosa-vkshader compiles "
             "HLSL with it")


def target_spv(info: CompilerInfo, opts: CompileOptions) -> str | None:
    """The ``--target-spv`` to compile HLSL with: the configured one; SPIR-V 1.3 for a
    glslang before 12.1 whose target environment would otherwise mean SPIR-V 1.4+."""
    if opts.target_spv:
        return opts.target_spv
    version = info.glslang_version
    if version is None or version >= _BUFFER_BLOCK_FIXED:
        return None
    return "spv1.3" if _SPV_OF_ENV.get(opts.target_env, (1, 0)) > (1, 3) else None


# WavePrefixSum / WavePrefixProduct: integer and float adds and multiplies.
_PREFIX_OPS = frozenset(OP[name] for name in (
    "OpGroupNonUniformIAdd", "OpGroupNonUniformFAdd", "OpGroupNonUniformIMul",
    "OpGroupNonUniformFMul"))
_INCLUSIVE, _EXCLUSIVE = 1, 2  # SPIR-V's GroupOperation InclusiveScan, ExclusiveScan
_OPERATION_WORD = 4  # opcode word, result type, result id, scope, then the operation


def exclusive_prefix_scans(spirv: bytes) -> bytes:
    """glslang's SPIR-V of an HLSL shader with its ``WavePrefixSum``/``WavePrefixProduct``
    scans made exclusive, as HLSL defines them (the module unchanged where there are
    none, or where the words do not parse: the reader reports those)."""
    words = module_words(spirv)
    scans = [at + _OPERATION_WORD for at, opcode, count in instructions(words)
             if opcode in _PREFIX_OPS and count > _OPERATION_WORD
             and words[at + _OPERATION_WORD] == _INCLUSIVE]
    if not scans:
        return spirv
    for operation in scans:
        words[operation] = _EXCLUSIVE
    return module_bytes(words)


def glslang_limits(source: str, spirv: bytes | None, diagnostics: list[Diagnostic],
                   info: CompilerInfo, pointer: str) -> list[Diagnostic]:
    """``diagnostics`` of an HLSL compile with glslang, with what glslang cannot do said
    as VKS311 in place of the compiler's own words."""
    compiler = f"glslang {info.glslang}"
    errors = [d for d in diagnostics if d.code == COMPILE_ERROR.code]
    clean = cleaned(source)
    text = clean.text
    if spirv is None and errors:
        match = _SIXTEEN_BIT.search(text)
        if match is not None:
            finding = HLSL_BEYOND_GLSLANG.at(
                pointer, f"{compiler} does not know HLSL's explicit 16-bit type "
                f"`{match.group()}` (Shader Model 6.2 with 16-bit types); DXC compiles it "
                f"({len(errors)} follow-on compiler error(s) not shown)",
                hint=_DXC_HINT + "; or use `half` for float16_t, which glslang makes a "
                     "16-bit float", inner=InnerPosition(*clean.position(match.start())))
            return [finding, *(d for d in diagnostics if d.code != COMPILE_ERROR.code)]
        return [_ambiguous(d, source, compiler, pointer) for d in diagnostics]
    combined = _COMBINED.search(text) if spirv is not None else None
    if combined is not None:
        ignored = [d for d in diagnostics
                   if "unrecognized attribute" in d.message and "combinedImageSampler" in
                   d.message]
        return [*(d for d in diagnostics if d not in ignored), HLSL_BEYOND_GLSLANG.at(
            pointer, f"{compiler} ignores `[[vk::combinedImageSampler]]` (\"unrecognized "
            "attribute\"): the texture and its sampler stay two descriptors, which the "
            "runtime cannot bind; DXC makes them one combined image sampler",
            hint=_DXC_HINT, inner=InnerPosition(*clean.position(combined.start())))]
    if spirv is not None and b"$Global\0" in spirv:
        match = _PUSH_STRUCT.search(text)
        if match is not None:
            kind, name = match.group("type"), match.group("name")
            return [*diagnostics, HLSL_BEYOND_GLSLANG.at(
                pointer, f"{compiler} makes `[[vk::push_constant]] {kind} {name}` a member "
                "of the `$Global` uniform buffer, not a push-constant block (DXC makes it "
                "one); the runtime never binds that buffer",
                hint=f"declare `[[vk::push_constant]] ConstantBuffer<{kind}> {name};`, which "
                     f"glslang makes a push-constant block; or {_DXC_HINT}",
                inner=InnerPosition(*clean.position(match.start())))]
    return diagnostics


def _ambiguous(diagnostic: Diagnostic, source: str, compiler: str,
               pointer: str) -> Diagnostic:
    match = _AMBIGUOUS.search(diagnostic.message)
    if diagnostic.code != COMPILE_ERROR.code or match is None:
        return diagnostic
    method = match.group("method")
    inner = diagnostic.inner
    if inner is not None:  # at the call on that line, when it is there
        text = source.split("\n")[inner.line - 1] if inner.line <= source.count("\n") + 1 \
            else ""
        column = text.find(f".{method}(")
        inner = InnerPosition(inner.line, column + 2) if column >= 0 else inner
    hint = _DXC_HINT
    if method == "Load":
        hint = ("RWTexture2D.Load takes the int2 coordinate (an int3 with a mip level is "
                "Texture2D's form): write `.Load(int2(x, y))` or `img[int2(x, y)]`; or "
                + _DXC_HINT)
    return replace(HLSL_BEYOND_GLSLANG.at(
        pointer, f"{compiler} cannot choose an overload of `{method}` for these "
                 "arguments (\"ambiguous best function under implicit type conversion\"); "
                 "DXC compiles the call", hint=hint), inner=inner)
