"""Reflection of one entry point in Vulkan's vocabulary, from a :class:`Module`."""

from __future__ import annotations

from functools import cache

from .. import vulkan
from .grammar import enum_name, enum_value
from .module import Module, Type, Variable
from .records import (
    DescriptorBinding,
    EntryPointInfo,
    LocalSize,
    PushConstantBlock,
    PushConstantMember,
    Reflection,
    SpecConstant,
)
from .types import scalar_leaves, scalar_name

MAX_TYPE_DEPTH = 64

_D = {name: enum_value("Decoration", name) for name in (
    "DescriptorSet", "Binding", "NonWritable", "NonReadable", "Block", "BufferBlock",
    "Offset", "ArrayStride", "MatrixStride", "SpecId", "BuiltIn")}
_BUILTIN_WORKGROUP_SIZE = enum_value("BuiltIn", "WorkgroupSize")
_MODE_LOCAL_SIZE = enum_value("ExecutionMode", "LocalSize")
_MODE_LOCAL_SIZE_ID = enum_value("ExecutionMode", "LocalSizeId")
_SC = {name: enum_value("StorageClass", name) for name in (
    "UniformConstant", "Uniform", "StorageBuffer", "PushConstant")}
_DESCRIPTOR_CLASSES = frozenset({_SC["UniformConstant"], _SC["Uniform"], _SC["StorageBuffer"]})
_DIM_BUFFER = enum_value("Dim", "Buffer")
_DIM_SUBPASS = enum_value("Dim", "SubpassData")
# Resources reached through a handle: OpLoad yields the handle, not the data.
_HANDLE_KINDS = frozenset({"image", "sampler", "sampled_image", "acceleration_structure",
                           "tensor"})
_WRITABLE_TYPES = frozenset({"VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
                             "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE",
                             "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER",
                             "VK_DESCRIPTOR_TYPE_TENSOR_ARM"})
_READS = {"load": (True, False), "store": (False, True), "atomic-load": (True, False),
          "atomic-store": (False, True), "atomic": (True, True), "image-read": (True, False),
          "image-write": (False, True), "tensor-read": (True, False),
          "tensor-write": (False, True), "use": (False, False)}


@cache
def _vk_format_by_spirv() -> dict[str, str]:
    table: dict[str, str] = {}
    for name in vulkan.format_names():
        info = vulkan.format_info(name)
        if info is not None and info.spirv_image_format:
            table.setdefault(info.spirv_image_format, info.name)
    return table


def vk_format_for_image_format(spirv_name: str) -> str | None:
    """The VK_FORMAT_* with SPIR-V image format ``spirv_name`` (Rgba8 -> ..._R8G8B8A8_UNORM)."""
    return _vk_format_by_spirv().get(spirv_name)


class _Types:
    """Type questions over one module, each guarded against depth and dangling ids."""

    def __init__(self, module: Module) -> None:
        self.m = module
        # Types form a DAG that can share sub-types many times over: memoize, or a crafted
        # module of nested structs takes exponential time.
        self.sizes: dict[tuple[int, int | None], int] = {}

    def get(self, type_id: int) -> Type | None:
        return self.m.types.get(type_id)

    def constant_int(self, const_id: int) -> int | None:
        c = self.m.constants.get(const_id)
        return c.value if c is not None and type(c.value) is int else None

    def strip_arrays(self, t: Type | None) -> tuple[Type | None, tuple[int, ...]]:
        dims: list[int] = []
        while t is not None and t.kind in ("array", "runtime_array") and len(dims) < 16:
            dims.append(self.constant_int(t.length_id) or 0 if t.kind == "array" else 0)
            t = self.get(t.element)
        return t, tuple(dims)

    def scalar(self, t: Type) -> str | None:
        return scalar_name(t)

    def leaves(self, type_id: int, found: set[str]) -> None:
        """Every scalar type inside a buffer's type (not through pointers)."""
        found |= scalar_leaves(self.m.types, type_id)

    def runtime_element(self, t: Type) -> int | None:
        """The element type of the runtime array that ends a buffer block, if any."""
        if t.kind == "struct" and t.members:
            last = self.get(t.members[-1])
            if last is not None and last.kind == "runtime_array":
                return last.element
        return None

    def element_type(self, t: Type) -> str | None:
        if t.kind == "struct":
            runtime = self.runtime_element(t)
            found: set[str] = set()
            self.leaves(runtime if runtime is not None else t.id, found)
            return found.pop() if len(found) == 1 else None
        if t.kind in ("tensor", "image"):
            element = self.get(t.element)
            return self.scalar(element) if element is not None else None
        if t.kind == "sampled_image":
            image = self.get(t.element)
            return self.element_type(image) if image is not None else None
        return None

    def name(self, type_id: int, depth: int = 0) -> str:
        t = self.get(type_id)
        if t is None or depth > MAX_TYPE_DEPTH:
            return f"%{type_id}"
        s = self.scalar(t)
        if s is not None:
            return s
        if t.kind == "vector":
            return f"{self.name(t.element, depth + 1)}x{t.count}"
        if t.kind == "matrix":
            return f"{self.name(t.element, depth + 1)}x{t.count}"
        if t.kind == "array":
            return f"{self.name(t.element, depth + 1)}[{self.constant_int(t.length_id)}]"
        if t.kind == "runtime_array":
            return f"{self.name(t.element, depth + 1)}[]"
        if t.kind == "struct":
            return self.m.names.get(type_id) or f"struct%{type_id}"
        return t.kind

    def size(self, type_id: int, matrix_stride: int | None = None, depth: int = 0) -> int:
        """Bytes a value of this type occupies in an explicitly laid out block."""
        key = (type_id, matrix_stride)
        known = self.sizes.get(key)
        if known is None:
            known = self.sizes[key] = self._size(type_id, matrix_stride, depth)
        return known

    def _size(self, type_id: int, matrix_stride: int | None, depth: int) -> int:
        t = self.get(type_id)
        if t is None or depth > MAX_TYPE_DEPTH:
            return 0
        if t.kind in ("int", "float"):
            return t.width // 8
        if t.kind == "bool":
            return 4
        if t.kind == "vector":
            return t.count * self.size(t.element, None, depth + 1)
        if t.kind == "matrix":
            stride = matrix_stride or self.size(t.element, None, depth + 1)
            return t.count * stride
        if t.kind == "array":
            length = self.constant_int(t.length_id) or 0
            array_stride = self.m.decoration(type_id, _D["ArrayStride"])
            if array_stride:
                return length * array_stride[0]
            return length * self.size(t.element, matrix_stride, depth + 1)
        if t.kind == "struct":
            return self.struct_size(t, depth)
        if t.kind == "pointer":
            return 8
        return 0

    def member_layout(self, t: Type, index: int, depth: int = 0) -> tuple[int, int]:
        decs = self.m.member_decorations.get(t.id, {}).get(index, {})
        offset = decs.get(_D["Offset"], (0,))
        stride = decs.get(_D["MatrixStride"])
        size = self.size(t.members[index], stride[0] if stride else None, depth + 1)
        return (offset[0] if offset else 0), size

    def struct_size(self, t: Type, depth: int = 0) -> int:
        if not t.members:
            return 0
        end = 0
        for index in range(len(t.members)):
            offset, size = self.member_layout(t, index, depth)
            end = max(end, offset + size)
        return end


def explicit_size(module: Module, type_id: int) -> int:
    """Bytes a value of ``type_id`` occupies in an explicitly laid out block (a buffer
    element, a push-constant member)."""
    return _Types(module).size(type_id)


def member_offset(module: Module, struct_id: int, index: int) -> int | None:
    """The Offset decoration of member ``index`` of a struct, if it has one."""
    offset = module.member_decorations.get(struct_id, {}).get(index, {}).get(_D["Offset"])
    return offset[0] if offset else None


def _decorated_on_all_members(module: Module, struct: Type, decoration: int) -> bool:
    members = module.member_decorations.get(struct.id)
    if not struct.members or not members:
        return False
    return all(decoration in members.get(i, {}) for i in range(len(struct.members)))


def _descriptor_type(module: Module, storage_class: int, base: Type) -> tuple[str, str] | None:
    """The VkDescriptorType Vulkan requires for a variable, and a resource word."""
    if storage_class == _SC["StorageBuffer"]:
        return "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "buffer"
    if storage_class == _SC["Uniform"]:
        if module.decoration(base.id, _D["BufferBlock"]) is not None:
            return "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "buffer"
        return "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER", "buffer"
    kind = base.kind
    if kind == "sampler":
        return "VK_DESCRIPTOR_TYPE_SAMPLER", "sampler"
    if kind == "acceleration_structure":
        return "VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR", "acceleration-structure"
    if kind == "tensor":
        return "VK_DESCRIPTOR_TYPE_TENSOR_ARM", "tensor"
    if kind == "sampled_image":
        image = module.types.get(base.element)
        if image is not None and image.dim == _DIM_BUFFER:
            return "VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER", "texel-buffer"
        return "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER", "image"
    if kind == "image":
        if base.dim == _DIM_BUFFER:
            if base.sampled == 2:
                return "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER", "texel-buffer"
            return "VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER", "texel-buffer"
        if base.dim == _DIM_SUBPASS:
            return "VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT", "input-attachment"
        if base.sampled == 2:
            return "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE", "image"
        return "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE", "image"
    return None


class _Usage:
    """Which variables the entry point's static call tree reads and writes."""

    def __init__(self, module: Module, entry_function: int) -> None:
        self.m = module
        self.reached = self._reachable(entry_function)
        self.param_args: dict[int, list[int]] = {}
        for fid in self.reached:
            for callee_id, args in module.functions[fid].calls:
                callee = module.functions.get(callee_id)
                if callee is None:
                    continue
                for param, arg in zip(callee.params, args, strict=False):
                    self.param_args.setdefault(param, []).append(arg)
        self.roots_cache: dict[int, tuple[int, ...]] = {}
        # variable id -> [used, read, written]
        self.state: dict[int, list[bool]] = {}
        self._collect()

    def _reachable(self, entry: int) -> list[int]:
        functions = self.m.functions
        seen = {entry} if entry in functions else set()
        todo = list(seen)
        while todo:
            for callee, _args in functions[todo.pop()].calls:
                if callee in functions and callee not in seen:
                    seen.add(callee)
                    todo.append(callee)
        return sorted(seen)

    def roots(self, start: int) -> tuple[int, ...]:
        cached = self.roots_cache.get(start)
        if cached is not None:
            return cached
        variables, derived, many = self.m.variables, self.m.derived, self.m.derived_many
        found: list[int] = []
        seen: set[int] = set()
        todo = [start]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            if current in variables:
                found.append(current)
            elif current in derived:
                todo.append(derived[current])
            elif current in many:
                todo.extend(many[current])
            elif current in self.param_args:
                todo.extend(self.param_args[current])
        result = tuple(found)
        self.roots_cache[start] = result
        return result

    def _collect(self) -> None:
        types, variables, state = self.m.types, self.m.variables, self.state
        for fid in self.reached:
            for what, target in self.m.functions[fid].accesses:
                read, write = _READS[what]
                for var_id in self.roots(target):
                    entry = state.get(var_id)
                    if entry is None:
                        entry = state[var_id] = [False, False, False]
                    entry[0] = True
                    if what == "load":
                        pointer = types.get(variables[var_id].type_id)
                        base = self.m.without_arrays(pointer.element) if pointer else None
                        if base is not None and base.kind in _HANDLE_KINDS:
                            continue  # loading the handle is not reading the data
                    entry[1] |= read
                    entry[2] |= write

    def of(self, var_id: int) -> tuple[bool, bool, bool]:
        entry = self.state.get(var_id)
        return (entry[0], entry[1], entry[2]) if entry else (False, False, False)


def _access(read: bool, write: bool) -> str:
    return "read-write" if read and write else "read" if read else "write" if write else "none"


def _local_size(module: Module, entry_function: int) -> LocalSize | None:
    def spec_id(const_id: int) -> int | None:
        c = module.constants.get(const_id)
        if c is None or not c.spec:
            return None
        dec = module.decoration(const_id, _D["SpecId"])
        return dec[0] if dec else None

    def value(const_id: int) -> int | None:
        c = module.constants.get(const_id)
        return c.value if c is not None and type(c.value) is int else None

    for c in module.constants.values():
        builtin = module.decoration(c.id, _D["BuiltIn"])
        if builtin and builtin[0] == _BUILTIN_WORKGROUP_SIZE and len(c.parts) == 3:
            return LocalSize(
                tuple(value(p) for p in c.parts),  # type: ignore[arg-type]
                tuple(spec_id(p) for p in c.parts),  # type: ignore[arg-type]
                "WorkgroupSize")
    for mode in module.execution_modes.get(entry_function, ()):
        if mode.mode == _MODE_LOCAL_SIZE and len(mode.operands) >= 3 and not mode.ids:
            return LocalSize(tuple(mode.operands[:3]), (None, None, None),  # type: ignore
                             "LocalSize")
        if mode.mode == _MODE_LOCAL_SIZE_ID and len(mode.operands) >= 3:
            ids = mode.operands[:3]
            return LocalSize(tuple(value(i) for i in ids),  # type: ignore[arg-type]
                             tuple(spec_id(i) for i in ids),  # type: ignore[arg-type]
                             "LocalSizeId")
    return None


def _variable_name(module: Module, var: Variable, base: Type | None) -> str:
    name = module.names.get(var.id)
    if name and name.strip("_"):  # HLSL names anonymous cbuffers "_"
        return name
    if base is not None and module.names.get(base.id):
        return module.names[base.id]
    return f"%{var.id}"


def _binding(module: Module, types: _Types, usage: _Usage | None,
             var: Variable) -> DescriptorBinding | None:
    pointer = types.get(var.type_id)
    if pointer is None or pointer.kind != "pointer":
        return None
    base, dims = types.strip_arrays(types.get(pointer.element))
    if base is None:
        return None
    described = _descriptor_type(module, var.storage_class, base)
    if described is None:
        return None
    descriptor_type, resource = described
    used, read, write = usage.of(var.id) if usage else (False, False, False)
    non_writable = module.decoration(var.id, _D["NonWritable"]) is not None or (
        base.kind == "struct" and _decorated_on_all_members(module, base, _D["NonWritable"]))
    non_readable = module.decoration(var.id, _D["NonReadable"]) is not None or (
        base.kind == "struct" and _decorated_on_all_members(module, base, _D["NonReadable"]))
    count = 1
    for d in dims:
        count *= d
    set_ = module.decoration(var.id, _D["DescriptorSet"])
    binding = module.decoration(var.id, _D["Binding"])
    image = base if base.kind == "image" else types.get(base.element) \
        if base.kind == "sampled_image" else None
    image_format = enum_name("ImageFormat", image.image_format) if image else None
    rank = shape = None
    if base.kind == "tensor":
        rank = types.constant_int(base.rank_id) if base.rank_id else None
        shape_const = module.constants.get(base.shape_id) if base.shape_id else None
        if shape_const is not None:
            shape = tuple(types.constant_int(p) or 0 for p in shape_const.parts)
    return DescriptorBinding(
        set=set_[0] if set_ else 0,
        binding=binding[0] if binding else 0,
        name=_variable_name(module, var, base),
        descriptor_type=descriptor_type,
        resource=resource,
        storage_class=enum_name("StorageClass", var.storage_class),
        array=dims,
        count=count,
        used=used,
        access=_access(read, write),
        writable=descriptor_type in _WRITABLE_TYPES and not non_writable,
        readable=not non_readable,
        element_type=types.element_type(base),
        image_dim=enum_name("Dim", image.dim) if image else None,
        image_format=image_format,
        vk_format=vk_format_for_image_format(image_format) if image_format else None,
        tensor_rank=rank,
        tensor_shape=shape,
        block_size=types.struct_size(base) if base.kind == "struct" else None,
        variable_id=var.id,
        type_name=module.names.get(base.id) if base.kind == "struct" else None,
    )


def _push_constants(module: Module, types: _Types, usage: _Usage | None,
                    interface: frozenset[int] | None) -> PushConstantBlock | None:
    blocks = []
    for var in module.variables.values():
        if var.storage_class != _SC["PushConstant"]:
            continue
        pointer = types.get(var.type_id)
        base = types.get(pointer.element) if pointer and pointer.kind == "pointer" else None
        if base is None or base.kind != "struct":
            continue
        if interface is not None and var.id not in interface:
            continue
        blocks.append((usage.of(var.id)[0] if usage else False, var, base))
    if not blocks:
        return None
    used, var, base = next((b for b in blocks if b[0]), blocks[0])
    members = []
    for index, member_type in enumerate(base.members):
        offset, size = types.member_layout(base, index)
        members.append(PushConstantMember(
            module.member_names.get((base.id, index), f"member{index}"), offset, size,
            types.name(member_type)))
    return PushConstantBlock(_variable_name(module, var, base), module.names.get(base.id),
                             types.struct_size(base), tuple(members), used, var.id)


def _spec_constants(module: Module, types: _Types) -> tuple[SpecConstant, ...]:
    found = []
    for c in module.constants.values():
        if not c.spec or c.parts:
            continue
        dec = module.decoration(c.id, _D["SpecId"])
        if dec:
            found.append(SpecConstant(dec[0], module.names.get(c.id, f"%{c.id}"),
                                      types.name(c.type_id), c.value))
    return tuple(sorted(found, key=lambda s: s.spec_id))


def reflect(module: Module, entry_point: str | None = None) -> Reflection:
    """Reflect ``entry_point`` (the first one when None) of a module from :func:`read_module`.

    When the entry point is not in the module, ``Reflection.entry_point`` is None and the
    bindings are all the module's descriptors, none of them marked as used.
    """
    types = _Types(module)
    ep = module.entry_point(entry_point)
    usage = _Usage(module, ep.function_id) if ep is not None else None
    # Since SPIR-V 1.4 the interface lists every global the entry point may reference
    # (compilers list unreferenced ones too: static use comes from the code, not from it).
    interface = frozenset(ep.interface) if ep is not None and module.version >= (1, 4) \
        else None
    bindings = []
    for var in module.variables.values():
        if var.storage_class in _DESCRIPTOR_CLASSES and (interface is None
                                                         or var.id in interface):
            entry = _binding(module, types, usage, var)
            if entry is not None:
                bindings.append(entry)
    bindings.sort(key=lambda b: (b.set, b.binding, b.variable_id))
    return Reflection(
        spirv_version=f"{module.version[0]}.{module.version[1]}",
        generator=module.generator,
        entry_points=tuple(EntryPointInfo(e.name, enum_name("ExecutionModel", e.execution_model))
                           for e in module.entry_points),
        entry_point=ep.name if ep else None,
        execution_model=enum_name("ExecutionModel", ep.execution_model) if ep else None,
        local_size=_local_size(module, ep.function_id) if ep else None,
        bindings=tuple(bindings),
        push_constants=_push_constants(module, types, usage, interface),
        spec_constants=_spec_constants(module, types),
        capabilities=tuple(enum_name("Capability", c) for c in module.capabilities),
        extensions=tuple(module.extensions),
    )
