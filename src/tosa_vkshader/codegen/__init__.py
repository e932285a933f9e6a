"""Code generation: shader -> attributes, attributes -> MLIR / .tosa, and repairs
(``repair``: what `tosa-vkshader fix` does).

    op = op_from_shader("relu.comp", name="relu")
    op.attrs                                   # the checked attribute object
    op.to_mlir(["tensor<1x8xf32>"], ["tensor<1x8xf32>"])
    op.to_tosa_bytes(["tensor<1x8xf32>"], ["tensor<1x8xf32>"])
"""

from .errors import CodegenError
from .infer import Generated, generate
from .op import VULKAN_DOMAIN, CustomOp, op_from_shader
from .repair import Repair, repair
from .shader import Shader, read_shader

__all__ = ["VULKAN_DOMAIN", "CodegenError", "CustomOp", "Generated", "Repair", "Shader",
           "generate", "op_from_shader", "read_shader", "repair"]
