"""What one op asks of a device, gathered from its attributes and its shader's SPIR-V.

The device rules (:mod:`tosa_vkshader.devices.checks`) compare these needs with each
target's profile; they never look at the attributes or the module themselves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import registry
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


def _texel_bytes(vkformat: str | None) -> int | None:
    info = registry.format_info(vkformat) if isinstance(vkformat, str) else None
    return info.block_size if info is not None and info.is_plain else None


def gather_needs(view: AttributeView, reflection: Reflection, workgroup_memory: int,
                 code_pointer: str) -> ShaderNeeds:
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
    for (direction, index), resource in sorted(view.resources.items()):
        tensor_list = None
        if context is not None:
            tensor_list = context.operands if direction == "input" else context.results
        model = tensor_list[index] if tensor_list is not None and index < len(
            tensor_list) else None
        shape = model.static_shape if model is not None else None
        vkformat = resource.str_value("vkformat")
        texel = _texel_bytes(vkformat)
        descriptor_type = registry.canonical_descriptor_type(
            resource.str_value("vkdescriptortype") or "") or ""
        pointer = resource.pointer("binding", view.base)
        resources.append(SizedResource(
            pointer, resource.pointer("vkformat", view.base), resource.name, descriptor_type,
            vkformat, shape,
            math.prod(shape) * texel if shape is not None and texel else None))
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
        dispatch=dispatch,  # type: ignore[arg-type]
        dispatch_pointer=view.pointer("workgroup_sizes"),
        descriptor_sets=max((b.set + 1 for b in reflection.bindings), default=0),
        descriptors=tuple(sorted(counts.items())),
        resources=tuple(resources),
        tensors=tuple(tensors),
    )
