"""Which VkFormat a shader binding implies, when the shader says enough to know.

The rules (documented in the README, section "Code generation"):

* storage images and texel buffers with a declared image format (``rgba8``, ``r32f``,
  HLSL ``Buffer<float4>``) -> the VkFormat with that SPIR-V image format;
* tensors -> the single-component format of the element type (int8 -> R8_SINT,
  float16 -> R16_SFLOAT, bool -> R8_BOOL_ARM);
* buffers -> the format of one element of the runtime array that ends the block (or of
  the block's only member): a scalar gives R<bits>_<class>, a vector of N scalars the
  N-component format (vec4 -> R32G32B32A32_SFLOAT), provided the array stride equals
  the vector's size (a std430 vec3 is padded to 16 bytes: no format describes that);
  a struct or matrix whose leaves are all one scalar type gives that scalar's format;
* anything else (sampled images and uniform texel buffers of Unknown format, structs with
  mixed member types, bool buffers) -> None: the caller asks for ``--format-of``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..spirv.grammar import OP, enum_value
from ..spirv.module import Module, Type
from ..spirv.records import DescriptorBinding
from ..spirv.types import scalar_leaves, scalar_name
from ..spirv.words import instructions

_NUMERIC = {"int": "SINT", "uint": "UINT", "float": "SFLOAT"}
_CHANNELS = "RGBA"
_ARRAY_STRIDE = enum_value("Decoration", "ArrayStride")


def scalar_format(scalar: str | None, components: int = 1, *, tensor: bool = False
                  ) -> str | None:
    """``float32`` -> VK_FORMAT_R32_SFLOAT; ``int8`` x 4 -> VK_FORMAT_R8G8B8A8_SINT."""
    if scalar is None or not 1 <= components <= 4:
        return None
    if scalar == "bool":
        return "VK_FORMAT_R8_BOOL_ARM" if tensor and components == 1 else None
    for prefix in ("uint", "int", "float"):
        if scalar.startswith(prefix) and scalar[len(prefix):].isdigit():
            bits = scalar[len(prefix):]
            channels = "".join(f"{c}{bits}" for c in _CHANNELS[:components])
            return f"VK_FORMAT_{channels}_{_NUMERIC[prefix]}"
    return None


class _Layout:
    def __init__(self, module: Module) -> None:
        self.m = module

    def type(self, type_id: int) -> Type | None:
        return self.m.types.get(type_id)

    def scalar(self, t: Type) -> str | None:
        return scalar_name(t)

    def leaves(self, type_id: int) -> set[str]:
        # A pointer or handle among the leaves: no format describes the binding.
        return scalar_leaves(self.m.types, type_id, with_handles=True)

    def element(self, element_id: int, stride: int | None) -> str | None:
        t = self.type(element_id)
        if t is None:
            return None
        scalar = self.scalar(t)
        if scalar is not None:
            if stride is not None and stride != t.width // 8:
                return None  # padded (a std140 float[]: 16 bytes apart)
            return scalar_format(scalar)
        if t.kind == "vector":
            component = self.type(t.element)
            scalar = self.scalar(component) if component is not None else None
            if scalar is None or scalar == "bool":
                return None
            size = t.count * (component.width // 8 if component else 0)
            if stride is not None and stride != size:
                return None  # padded (std430 vec3): no VkFormat has that layout
            return scalar_format(scalar, t.count)
        if t.kind in ("array", "runtime_array"):
            return self.element(t.element, None)
        leaves = self.leaves(element_id)
        if len(leaves) == 1:
            return scalar_format(leaves.pop())
        return None

    def padded(self, variable_id: int) -> Padded | None:
        """How the runtime array that ends the buffer's block pads its elements, when it
        does (a std430 vec3: 16 bytes; a std140 float: 16 bytes)."""
        block = self._block(variable_id)
        last = self._last_array(block) if block is not None else None
        t = self.type(last.element) if last is not None else None
        if last is None or t is None:
            return None
        stride = self.m.decoration(last.id, _ARRAY_STRIDE)
        scalar = self.scalar(t)
        if scalar is not None:
            if not stride or stride[0] == t.width // 8:
                return None
            return Padded(f"its elements are {scalar} with an array stride of {stride[0]} "
                          f"bytes ({t.width // 8} of data), and no VkFormat has that layout",
                          "declare the block `layout(std430)`: std140 rounds the stride of "
                          "an array up to 16 bytes")
        component = self.type(t.element) if t.kind == "vector" else None
        if component is None:
            return None
        data = t.count * (component.width // 8)
        if not stride or stride[0] == data:
            return None
        return Padded(f"its elements are {t.count}-component vectors of "
                      f"{scalar_name(component)} with an array stride of {stride[0]} bytes "
                      f"({data} of data), and no VkFormat has that layout",
                      "declare the elements as scalars (three to an element) or as "
                      "four-component vectors (a tensor of ...x4): both have a VkFormat")

    def _last_array(self, block: Type) -> Type | None:
        """The runtime array that ends ``block``, if one does."""
        last = self.type(block.members[-1])
        return last if last is not None and last.kind == "runtime_array" else None

    def _block(self, variable_id: int) -> Type | None:
        var = self.m.variables.get(variable_id)
        pointer = self.type(var.type_id) if var else None
        block = self.type(pointer.element) if pointer and pointer.kind == "pointer" else None
        while block is not None and block.kind in ("array", "runtime_array"):
            block = self.type(block.element)  # an array of buffers: one buffer's format
        if block is None or block.kind != "struct" or not block.members:
            return None
        return block

    def buffer(self, variable_id: int) -> str | None:
        block = self._block(variable_id)
        if block is None:
            return None
        last = self._last_array(block)
        if last is not None:
            stride = self.m.decoration(last.id, _ARRAY_STRIDE)
            return self.element(last.element, stride[0] if stride else None)
        if len(block.members) == 1:
            only = self.type(block.members[0])
            if only is not None and only.kind == "array":
                stride = self.m.decoration(only.id, _ARRAY_STRIDE)
                return self.element(only.element, stride[0] if stride else None)
            return self.element(block.members[0], None)
        leaves = self.leaves(block.id)
        return scalar_format(leaves.pop()) if len(leaves) == 1 else None


def inferred_format(module: Module, binding: DescriptorBinding) -> str | None:
    """The VkFormat ``binding`` implies, or None when the shader does not say."""
    if binding.image_format not in (None, "Unknown"):
        return binding.vk_format
    if binding.resource == "tensor":
        return scalar_format(binding.element_type, tensor=True)
    if binding.resource == "buffer":
        return _Layout(module).buffer(binding.variable_id)
    return None


@dataclass(frozen=True, slots=True)
class Padded:
    """Why a buffer of padded elements has no format, and the declaration that has one."""

    why: str
    fix: str


def padded_vector(module: Module, binding: DescriptorBinding) -> Padded | None:
    """Why a buffer of padded elements (a std430 ``vec3[]``, a std140 ``float[]``) has no
    format, or None."""
    if binding.resource != "buffer":
        return None
    return _Layout(module).padded(binding.variable_id)


def fixed_format(binding: DescriptorBinding) -> str | None:
    """A format the shader fixes, which ``--format-of`` may not contradict: the image
    format of a storage image or texel buffer, or a tensor's element format."""
    if binding.image_format not in (None, "Unknown") and binding.descriptor_type in (
            "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE", "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER"):
        return binding.vk_format
    if binding.resource == "tensor":
        return scalar_format(binding.element_type, tensor=True)
    return None


_ARRAY_LENGTH = OP["OpArrayLength"]


def length_read(words: Sequence[int], variable_id: int) -> bool:
    """Whether the module's code reads ``.length()`` of the runtime array of the buffer
    ``variable_id`` (``OpArrayLength`` on the variable itself)."""
    return any(op == _ARRAY_LENGTH and count >= 4 and words[at + 3] == variable_id
               for at, op, count in instructions(words))


_SUBGROUP_IDS = {enum_value("BuiltIn", name): name for name in (
    "SubgroupId", "NumSubgroups", "SubgroupSize", "SubgroupLocalInvocationId")}
_BUILT_IN = enum_value("Decoration", "BuiltIn")
_DECORATE = OP["OpDecorate"]


def subgroup_ids_read(words: Sequence[int]) -> list[str]:
    """The GLSL names of the subgroup built-ins the module declares (``gl_SubgroupID``):
    their values depend on the device's subgroup size."""
    found = [_SUBGROUP_IDS[words[at + 3]] for at, op, count in instructions(words)
             if op == _DECORATE and count >= 4 and words[at + 2] == _BUILT_IN
             and words[at + 3] in _SUBGROUP_IDS]
    glsl = {"SubgroupId": "gl_SubgroupID", "NumSubgroups": "gl_NumSubgroups",
            "SubgroupSize": "gl_SubgroupSize",
            "SubgroupLocalInvocationId": "gl_SubgroupInvocationID"}
    return [glsl[name] for name in dict.fromkeys(found)]
