"""Which line of a GLSL/HLSL source needs a SPIR-V capability or extension.

A device that lacks ``Float16`` (VKS700), or a compiler that cannot handle the shader
(VKS910), is about some line of the source: the first one that uses a 16-bit float, the
``#extension GL_ARM_tensors`` line. This finds it from the source text (comments
blanked), so a report points there instead of underlining the whole ``shader_code``: the
first statement that uses what the capability is for, else the ``#extension`` line that
enables it, else nothing (the caller then points at the shader's first line).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..diagnostics import InnerPosition
from .scan import cleaned

# What a source writes that makes the compiler declare the capability (or extension):
# types and functions, GLSL and HLSL.
_F16 = r"float16_t|f16vec[234]|f16mat\w*|half[1-4]?(?:x[1-4])?|min16float[1-4]?"
_I16 = r"u?int16_t|[iu]16vec[234]|min16u?int[1-4]?"
_I8 = r"u?int8_t|[iu]8vec[234]"
_USES: dict[str, str] = {
    "Float16": _F16,
    "Float64": r"double[1-4]?(?:x[1-4])?|dvec[234]|dmat\w*|float64_t|f64vec[234]",
    "Int64": r"u?int64_t|[iu]64vec[234]",
    "Int16": _I16,
    "Int8": _I8,
    "StorageBuffer16BitAccess": f"{_F16}|{_I16}",
    "UniformAndStorageBuffer16BitAccess": f"{_F16}|{_I16}",
    "StoragePushConstant16": f"{_F16}|{_I16}",
    "StorageBuffer8BitAccess": _I8,
    "UniformAndStorageBuffer8BitAccess": _I8,
    "StoragePushConstant8": _I8,
    "Int64Atomics": r"atomic\w*|Interlocked\w*",
    "TensorsARM": r"tensorARM|tensor(?:Read|Write|Size)ARM",
    "StorageImageWriteWithoutFormat": r"imageStore",
    "StorageImageReadWithoutFormat": r"imageLoad",
    "GroupNonUniform": r"subgroup\w*|gl_Subgroup\w*|Wave\w*",
    "GroupNonUniformArithmetic": r"subgroup(?:Add|Mul|Min|Max|And|Or|Xor|Inclusive\w*|"
                                 r"Exclusive\w*)|Wave(?:Active|Prefix)\w*",
    "GroupNonUniformBallot": r"subgroupBallot\w*|WaveActiveBallot",
    "GroupNonUniformShuffle": r"subgroupShuffle\w*|WaveReadLaneAt",
    "GroupNonUniformVote": r"subgroup(?:All|Any|AllEqual)|WaveActive(?:AllTrue|AnyTrue)",
    "ImageQuery": r"imageSize|textureSize|GetDimensions",
    "SampledImageArrayDynamicIndexing": r"sampler\w*\s*\w+\s*\[",
    "StorageBufferArrayDynamicIndexing": r"buffer\s+\w+\s*\{[^}]*\}\s*\w+\s*\[",
    "VulkanMemoryModel": r"coherent|volatile|memoryBarrier\w*",
    "DotProduct": r"dotEXT|dot4add\w*",
}
_EXTENSIONS: dict[str, str] = {
    "SPV_KHR_16bit_storage": "StorageBuffer16BitAccess",
    "SPV_KHR_8bit_storage": "StorageBuffer8BitAccess",
    "SPV_ARM_tensors": "TensorsARM",
    "SPV_AMD_gpu_shader_half_float": "Float16",
    "SPV_KHR_shader_atomic_int64": "Int64Atomics",
    "SPV_KHR_vulkan_memory_model": "VulkanMemoryModel",
}
# The #extension (GLSL) lines that enable them, by a word of the extension's name.
_DIRECTIVE_WORDS: dict[str, str] = {
    "Float16": "float16|half_float", "Float64": "fp64|float64", "Int64": "int64",
    "Int16": "int16", "Int8": "int8", "TensorsARM": "ARM_tensors",
    "StorageBuffer16BitAccess": "16bit_storage", "StorageBuffer8BitAccess": "8bit_storage",
}
_DIRECTIVE = re.compile(r"(?m)^[ \t\f\v\x1f]*#[ \t]*extension\b.*$")


@lru_cache(maxsize=256)
def needing_line(source: str, name: str) -> InnerPosition | None:
    """The position in ``source`` of the first use of what capability (or extension)
    ``name`` is for, else of the ``#extension`` that enables it; None when neither is
    found."""
    name = _EXTENSIONS.get(name, name)
    clean = cleaned(source)
    text = clean.text
    uses = _USES.get(name)
    if uses is not None:
        directive_lines = [m.span() for m in _DIRECTIVE.finditer(text)]
        for match in re.finditer(rf"\b(?:{uses})\b", text):
            if not any(start <= match.start() < end for start, end in directive_lines):
                return InnerPosition(*clean.position(match.start()))
    words = _DIRECTIVE_WORDS.get(name)
    for match in _DIRECTIVE.finditer(text):
        if words is not None and re.search(words, match.group(), re.IGNORECASE):
            return InnerPosition(*clean.position(match.group().index("#") + match.start()))
    return None
