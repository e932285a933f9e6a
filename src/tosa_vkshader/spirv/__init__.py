"""SPIR-V: a pure-Python reader, reflection in Vulkan's vocabulary, and spirv-val.

Tools only: nothing here knows about attributes or rules (the shader stage, ``shader/``,
puts them together, and ``check.py`` hands its records to the rules)."""

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

__all__ = ["DescriptorBinding", "LocalSize", "Module", "PushConstantBlock",
           "PushConstantMember", "Reflection", "read_module", "reflect"]
