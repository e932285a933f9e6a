"""What one op asks of a device, gathered from its attributes and its shader's SPIR-V.

The device rules (:mod:`tosa_vkshader.devices.checks`) compare these needs with each
target's profile; they never look at the attributes or the module themselves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import vulkan

if TYPE_CHECKING:
    from ..spirv.module import Module
    from ..spirv.records import Reflection
    from ..view import AttributeView


@dataclass(frozen=True, slots=True)
class SizedResource:
    """An attribute resource whose size the op's model context makes known."""

    pointer: str  # the resource's binding key
    format_pointer: str  # its vkformat key
    name: str  # input_0, output_1, ...
    descriptor_type: str
    vkformat: str | None
    shape: tuple[int, ...] | None  # static shape from the model, when known
    bytes: int | None  # elements x texel size, when both are known


@dataclass(frozen=True, slots=True)
class TensorNeed:
    """A tensor the op binds or the shader declares, with what is known of its size."""

    pointer: str  # the resource's binding key, or shader_code for the shader's own
    what: str  # how messages name it
    shape: tuple[int, ...] | None  # static shape, when known
    rank: int | None


@dataclass(frozen=True, slots=True)
class ImageNeed:
    """An image the shader declares with a known dimensionality, bound to a resource whose
    shape the model gives."""

    pointer: str  # the resource's binding key
    name: str  # input_0, output_1, ...
    dim: str  # 1D, 2D, 3D, Cube
    extent: tuple[int, ...]  # width[, height[, depth]] as the image would be created
    shape: tuple[int, ...]  # the tensor's static shape


@dataclass(frozen=True, slots=True)
class MatrixNeed:
    """One ``OpTypeCooperativeMatrixKHR`` of the shader."""

    component: str  # VK_COMPONENT_TYPE_*_KHR, or the SPIR-V type when it has none
    scope: str  # VK_SCOPE_*_KHR
    rows: int | None  # None: a specialization constant or an id the reader cannot fold
    columns: int | None
    use: str  # A, B, Accumulator

    def describe(self) -> str:
        rows = "?" if self.rows is None else self.rows
        columns = "?" if self.columns is None else self.columns
        return (f"a {rows}x{columns} cooperative matrix of {self.component} used as "
                f"{self.use} at {self.scope} scope")


@dataclass(frozen=True, slots=True)
class ShaderNeeds:
    code_pointer: str  # shader_code: where shader-wide findings point
    capabilities: tuple[str, ...]
    extensions: tuple[str, ...]
    local_size: tuple[int | None, int | None, int | None] | None
    local_size_text: str | None  # "x=256, y=1, z=1 (SpecId 0 on x)"
    workgroup_memory: int  # bytes of Workgroup storage, at least
    push_constants: int | None  # bytes of the push-constant block
    push_pointer: str  # push_constants when declared in the attributes, else shader_code
    dispatch: tuple[int, int, int] | None  # workgroup_sizes, as the runtime dispatches it
    dispatch_pointer: str
    descriptor_sets: int  # highest set index + 1 among the shader's bindings
    # VK_DESCRIPTOR_TYPE_* -> descriptors of that type the shader declares (arrays counted)
    descriptors: tuple[tuple[str, int], ...]
    resources: tuple[SizedResource, ...]
    tensors: tuple[TensorNeed, ...]
    spirv_version: tuple[int, int] | None = None
    images: tuple[ImageNeed, ...] = ()
    matrices: tuple[MatrixNeed, ...] = ()

    @property
    def subgroup_operations(self) -> tuple[str, ...]:
        """The GroupNonUniform* capabilities: the shader runs subgroup operations."""
        return tuple(c for c in self.capabilities if c.startswith("GroupNonUniform"))


_BUFFERS = ("VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER")


def _texel_bytes(vkformat: str | None, descriptor_type: str) -> int | None:
    """Bytes per element as the runtime allocates them (a buffer of a three-component
    format: padded to four components)."""
    info = vulkan.format_info(vkformat) if isinstance(vkformat, str) else None
    if info is None or not info.is_plain:
        return None
    return info.buffer_element_bytes if descriptor_type in _BUFFERS else info.block_size


def _image_extent(dim: str | None, shape: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """(width[, height[, depth]]) of an image of dimensionality ``dim`` made from a
    tensor of ``shape``: the spatial dimensions before the channels (NHWC: H, W), with a
    leading batch of 1 and a trailing channel dimension dropped when the shape has them,
    as ``run`` makes images."""
    count = {"1D": 1, "2D": 2, "Cube": 2, "3D": 3}.get(dim or "")
    if count is None or shape is None or len(shape) < count:
        return None
    spatial = shape[-(count + 1):-1] if len(shape) > count else shape
    return tuple(reversed(spatial))  # width first


# SPIR-V enumerants (the SPIR-V specification, "Scope", "Cooperative Matrix Use",
# "FP Encoding"), as Vulkan names them
_SCOPES = {1: "VK_SCOPE_DEVICE_KHR", 2: "VK_SCOPE_WORKGROUP_KHR",
           3: "VK_SCOPE_SUBGROUP_KHR", 5: "VK_SCOPE_QUEUE_FAMILY_KHR"}
_USES = {0: "A", 1: "B", 2: "Accumulator"}
_BFLOAT16 = 0


def _component(module: Module, type_id: int) -> str:
    found = module.types.get(type_id)
    if found is None:
        return "an unknown type"
    if found.kind == "float":
        if found.encoding == _BFLOAT16 and found.width == 16:
            return "VK_COMPONENT_TYPE_BFLOAT16_KHR"
        if found.encoding < 0:
            return f"VK_COMPONENT_TYPE_FLOAT{found.width}_KHR"
    if found.kind == "int":
        return f"VK_COMPONENT_TYPE_{'S' if found.signed else 'U'}INT{found.width}_KHR"
    return f"a {found.kind} type"


def _folded(module: Module, constant_id: int) -> int | None:
    constant = module.constants.get(constant_id)
    if constant is None or constant.spec or type(constant.value) is not int:
        return None
    return constant.value


def cooperative_matrices(module: Module | None) -> tuple[MatrixNeed, ...]:
    """The shader's cooperative matrix types, each once."""
    if module is None:
        return ()
    found = []
    for declared in module.types.values():
        if declared.kind != "cooperative_matrix" or len(declared.members) != 4:
            continue
        scope, rows, columns, use = (_folded(module, i) for i in declared.members)
        found.append(MatrixNeed(
            _component(module, declared.element),
            _SCOPES.get(scope, f"scope {scope}") if scope is not None else "an unknown",
            rows, columns, _USES.get(use, f"use {use}") if use is not None else "unknown"))
    return tuple(dict.fromkeys(found))


def gather_needs(view: AttributeView, reflection: Reflection, workgroup_memory: int,
                 code_pointer: str, matrices: tuple[MatrixNeed, ...] = ()) -> ShaderNeeds:
    local = reflection.local_size
    sizes = view.attrs.get("workgroup_sizes")
    dispatch = tuple(sizes) if isinstance(sizes, list) and len(sizes) == 3 and all(
        type(s) is int and s >= 0 for s in sizes) else None
    counts: dict[str, int] = {}
    for binding in reflection.bindings:
        # A runtime-sized array counts 0: its size is only known when it is bound.
        counts[binding.descriptor_type] = counts.get(binding.descriptor_type, 0) + binding.count
    context = view.context
    resources = []
    tensors = []
    images = []
    for (direction, index), resource in sorted(view.resources.items()):
        tensor_list = None
        if context is not None:
            tensor_list = context.operands if direction == "input" else context.results
        model = tensor_list[index] if tensor_list is not None and index < len(
            tensor_list) else None
        shape = model.static_shape if model is not None else None
        vkformat = resource.str_value("vkformat")
        descriptor_type = vulkan.canonical_descriptor_type(
            resource.str_value("vkdescriptortype") or "") or ""
        texel = _texel_bytes(vkformat, descriptor_type)
        pointer = resource.pointer("binding", view.base)
        resources.append(SizedResource(
            pointer, resource.pointer("vkformat", view.base), resource.name, descriptor_type,
            vkformat, shape,
            math.prod(shape) * texel if shape is not None and texel else None))
        set_, number = resource.int_value("descriptorset"), resource.int_value("binding")
        declared = reflection.binding(set_ or 0, number) if number is not None else None
        extent = _image_extent(declared.image_dim if declared is not None
                               and declared.resource == "image" else None, shape)
        if extent is not None and shape is not None and declared is not None:
            images.append(ImageNeed(pointer, resource.name, declared.image_dim or "",
                                    extent, shape))
        if descriptor_type == "VK_DESCRIPTOR_TYPE_TENSOR_ARM":
            rank = len(shape) if shape is not None else (model.rank if model else None)
            tensors.append(TensorNeed(
                pointer, f"{resource.name} ({model.text if model else 'tensor'})", shape, rank))
    for binding in reflection.bindings:
        if binding.resource == "tensor" and binding.tensor_rank is not None:
            shape = binding.tensor_shape if binding.tensor_shape and all(
                binding.tensor_shape) else None
            tensors.append(TensorNeed(
                code_pointer, f"the shader's tensor {binding.name!r} at set {binding.set}, "
                              f"binding {binding.binding}", shape, binding.tensor_rank))
    push = reflection.push_constants
    return ShaderNeeds(
        code_pointer=code_pointer,
        capabilities=reflection.capabilities,
        extensions=reflection.extensions,
        local_size=local.values if local is not None else None,
        local_size_text=local.describe() if local is not None else None,
        workgroup_memory=workgroup_memory,
        push_constants=push.size if push is not None else None,
        push_pointer=view.pointer("push_constants") if "push_constants" in view.attrs
        else code_pointer,
        dispatch=dispatch,
        dispatch_pointer=view.pointer("workgroup_sizes"),
        descriptor_sets=max((b.set + 1 for b in reflection.bindings), default=0),
        descriptors=tuple(sorted(counts.items())),
        resources=tuple(resources),
        tensors=tuple(tensors),
        spirv_version=_version(reflection.spirv_version),
        images=tuple(images),
        matrices=matrices,
    )


def _version(text: str) -> tuple[int, int] | None:
    major, _, minor = text.partition(".")
    return (int(major), int(minor)) if major.isdigit() and minor.isdigit() else None
