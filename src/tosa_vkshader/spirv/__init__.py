"""SPIR-V: a pure-Python reader, reflection in Vulkan's vocabulary, and spirv-val."""

from __future__ import annotations

from .analyse import analyse_spirv
from .module import Module
from .reader import read_module
from .records import (
    DescriptorBinding,
    LocalSize,
    PushConstantBlock,
    PushConstantMember,
    Reflection,
)
from .reflect import reflect

__all__ = ["DescriptorBinding", "LocalSize", "Module", "PushConstantBlock",
           "PushConstantMember", "Reflection", "analyse_spirv", "read_module", "reflect"]
