"""Code generation: shader -> attributes, attributes -> MLIR / .tosa, and repairs.

    op = op_from_shader("relu.comp", name="relu")
    op.attrs                                   # the checked attribute object
    op.to_mlir(["tensor<1x8xf32>"], ["tensor<1x8xf32>"])
    op.to_tosa_bytes(["tensor<1x8xf32>"], ["tensor<1x8xf32>"])
"""

from .errors import CodegenError
from .fix import FixResult, fix_text
from .infer import Generated, generate
from .op import VULKAN_DOMAIN, CustomOp, op_from_shader
from .shader import Shader, read_shader

__all__ = ["VULKAN_DOMAIN", "CodegenError", "CustomOp", "FixResult", "Generated", "Shader",
           "fix_text", "generate", "op_from_shader", "read_shader"]
