"""The shader stage: one entry from an op's shader fields to a :class:`Shader` record.

    from tosa_vkshader.shader import build_shaders, request_for

    outcomes = build_shaders([request_for(attrs, base) for attrs, base in ops], options)
    for outcome in outcomes:
        if outcome is not None and outcome.shader is not None:
            outcome.shader.spirv, outcome.shader.reflection, outcome.shader.compiler

Decoding base64, compiling GLSL/HLSL, spirv-val and reflection all happen behind
:func:`build_shaders`, once per distinct shader in a run (and, for compiling and
spirv-val, once per content across runs through the disk cache). See
``docs/architecture.md``.
"""

from .record import LANGUAGES, Shader, ShaderOutcome, ShaderRequest
from .stage import build_shader, build_shaders, request_for

__all__ = ["LANGUAGES", "Shader", "ShaderOutcome", "ShaderRequest",
           "build_shader", "build_shaders", "request_for"]
