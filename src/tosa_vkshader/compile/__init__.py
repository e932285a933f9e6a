"""Compile GLSL/HLSL shader code to SPIR-V with glslc, in batches, with a cache.

    results = compile_many([CompileRequest(source, "GLSL")], options)

Each result holds the SPIR-V (or None) and diagnostics positioned inside the shader.
"""

from .batch import compile_many
from .compiler import CompilerInfo, CompilerUnavailable, compiler_info, locate_glslc
from .options import CompileOptions
from .request import CompileRequest, CompileResult

__all__ = [
    "CompileOptions",
    "CompileRequest",
    "CompileResult",
    "CompilerInfo",
    "CompilerUnavailable",
    "compile_many",
    "compiler_info",
    "locate_glslc",
]
