"""Reflection results: flat, explicit records in Vulkan's vocabulary, JSON-ready."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True, slots=True)
class LocalSize:
    """The entry point's local workgroup size.

    ``values`` are the sizes the pipeline gets without specialization (the defaults of
    specialization constants where they drive it); ``spec_ids`` holds, per dimension,
    the SpecId that can override it, or None for a fixed size.
    """

    values: tuple[int | None, int | None, int | None]
    spec_ids: tuple[int | None, int | None, int | None]
    # "LocalSize", "LocalSizeId" or "WorkgroupSize" (the built-in constant, which wins)
    source: str

    @property
    def specializable(self) -> bool:
        return any(s is not None for s in self.spec_ids)

    def describe(self) -> str:
        parts = []
        for axis, value, spec in zip("xyz", self.values, self.spec_ids, strict=True):
            text = f"{axis}={value if value is not None else '?'}"
            if spec is not None:
                text += f" (SpecId {spec})"
            parts.append(text)
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class DescriptorBinding:
    set: int
    binding: int
    name: str  # the variable's name, else its block type's name, else "%<id>"
    descriptor_type: str  # VK_DESCRIPTOR_TYPE_*, never the dynamic variants
    resource: str  # buffer, texel-buffer, image, sampler, input-attachment,
    #                acceleration-structure, tensor
    storage_class: str
    array: tuple[int, ...]  # array dimensions, outermost first; 0 = runtime-sized
    count: int  # descriptors: product of the dimensions, 1 when not an array, 0 runtime
    used: bool  # statically used by the entry point
    access: str  # what the entry point's code does: none, read, write, read-write
    writable: bool  # the type allows writes and it is not NonWritable
    readable: bool  # not NonReadable
    element_type: str | None  # scalar of a buffer/tensor/image element: float32, int8, ...
    image_dim: str | None = None
    image_format: str | None = None  # the SPIR-V name, e.g. Rgba16f, Unknown
    vk_format: str | None = None  # the VK_FORMAT_* with that SPIR-V image format
    tensor_rank: int | None = None
    tensor_shape: tuple[int, ...] | None = None
    block_size: int | None = None  # buffers: bytes up to the runtime array
    variable_id: int = 0
    type_name: str | None = None


@dataclass(frozen=True, slots=True)
class PushConstantMember:
    name: str
    offset: int
    size: int
    type: str


@dataclass(frozen=True, slots=True)
class PushConstantBlock:
    name: str
    type_name: str | None
    size: int  # offset + size of the last member, as Vulkan's push-constant range needs
    members: tuple[PushConstantMember, ...]
    used: bool
    variable_id: int = 0

    def gaps(self) -> list[tuple[int, int, PushConstantMember]]:
        """(offset, bytes, the member after it) of each gap the layout leaves before a
        member (std430 puts a vec4 after a float at 16)."""
        found = []
        offset = 0
        for member in sorted(self.members, key=lambda m: m.offset):
            if member.offset > offset:
                found.append((offset, member.offset - offset, member))
            offset = member.offset + member.size
        return found

    def attribute_text(self) -> str:
        """The ``push_constants`` attribute that describes the block: each member with its
        size in offset order, and a ``pad_<offset>`` entry for each gap."""
        padding = {member.name: (offset, size) for offset, size, member in self.gaps()}
        parts = []
        for member in sorted(self.members, key=lambda m: m.offset):
            if member.name in padding:
                offset, size = padding[member.name]
                parts.append(f"pad_{offset}: {size}")
            parts.append(f"{member.name}: {member.size}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class SpecConstant:
    spec_id: int
    name: str
    type: str
    default: int | float | bool | None


@dataclass(frozen=True, slots=True)
class EntryPointInfo:
    name: str
    execution_model: str


@dataclass(frozen=True, slots=True)
class Reflection:
    spirv_version: str
    generator: int
    entry_points: tuple[EntryPointInfo, ...]
    # The selected entry point; None when the requested one is not in the module.
    entry_point: str | None
    execution_model: str | None
    local_size: LocalSize | None
    bindings: tuple[DescriptorBinding, ...]
    push_constants: PushConstantBlock | None
    spec_constants: tuple[SpecConstant, ...]
    capabilities: tuple[str, ...]
    extensions: tuple[str, ...]

    def binding(self, set_: int, binding: int) -> DescriptorBinding | None:
        for entry in self.bindings:
            if entry.set == set_ and entry.binding == binding:
                return entry
        return None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
