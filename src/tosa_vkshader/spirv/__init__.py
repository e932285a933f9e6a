"""SPIR-V: a pure-Python reader, reflection in Vulkan's vocabulary, and spirv-val."""

from __future__ import annotations

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
from .analyse import analyse_spirv  # noqa: E402  (last: it pulls in crosscheck)

__all__ = ["DescriptorBinding", "LocalSize", "Module", "PushConstantBlock",
           "PushConstantMember", "Reflection", "analyse_spirv", "read_module", "reflect"]
