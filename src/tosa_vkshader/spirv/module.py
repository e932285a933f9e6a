"""What the reader keeps of a SPIR-V module: the subset reflection needs, by result id."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Type:
    """One ``OpType*`` declaration. ``kind`` says which of the optional fields mean something.

    kinds: void, bool, int, float, vector, matrix, image, sampler, sampled_image, array,
    runtime_array, struct, pointer, function, acceleration_structure, ray_query, tensor,
    cooperative_matrix, opaque.
    """

    id: int
    kind: str
    width: int = 0  # int, float
    encoding: int = -1  # float: its FP encoding operand (0: BFloat16KHR); -1 when none
    signed: bool = False  # int
    element: int = 0  # vector/matrix component, array element, pointee, tensor element,
    #                   sampled image's image, image's sampled type
    count: int = 0  # vector/matrix component count
    length_id: int = 0  # array: id of the (spec) constant length
    members: tuple[int, ...] = ()  # struct members, function parameters; cooperative
    #                               matrix: the ids of its scope, rows, columns and use
    storage_class: int = -1  # pointer
    dim: int = -1  # image
    depth: int = 0
    arrayed: int = 0
    multisampled: int = 0
    sampled: int = 0  # image: 0 unknown, 1 with sampler, 2 storage
    image_format: int = 0
    rank_id: int = 0  # tensor
    shape_id: int = 0  # tensor


@dataclass(slots=True)
class Constant:
    id: int
    type_id: int
    value: int | float | bool | None  # scalars; None for composites and non-literal ones
    spec: bool = False
    parts: tuple[int, ...] = ()  # composite constituents


@dataclass(slots=True)
class Variable:
    id: int
    type_id: int  # the pointer type
    storage_class: int


@dataclass(slots=True)
class EntryPoint:
    execution_model: int
    function_id: int
    name: str
    interface: tuple[int, ...]


@dataclass(slots=True)
class ExecutionMode:
    mode: int
    operands: tuple[int, ...]
    ids: bool  # OpExecutionModeId: operands are ids, not literals


@dataclass(slots=True)
class Function:
    """A function body, reduced to what reachability and access analysis need."""

    id: int
    params: list[int] = field(default_factory=list)
    # (callee id, argument ids)
    calls: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    # (what, id): what in load, store, atomic-load, atomic-store, atomic, image-read,
    # image-write, tensor-read, tensor-write, use
    accesses: list[tuple[str, int]] = field(default_factory=list)


@dataclass(slots=True)
class Module:
    version: tuple[int, int]
    generator: int
    bound: int
    byte_swapped: bool = False
    capabilities: list[int] = field(default_factory=list)
    extensions: list[str] = field(default_factory=list)
    ext_inst_imports: dict[int, str] = field(default_factory=dict)
    addressing_model: int = -1
    memory_model: int = -1
    entry_points: list[EntryPoint] = field(default_factory=list)
    execution_modes: dict[int, list[ExecutionMode]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    member_names: dict[tuple[int, int], str] = field(default_factory=dict)
    # id -> decoration -> its literal (or id) operands
    decorations: dict[int, dict[int, tuple[int, ...]]] = field(default_factory=dict)
    # struct id -> member index -> decoration -> operands
    member_decorations: dict[int, dict[int, dict[int, tuple[int, ...]]]] = field(
        default_factory=dict)
    types: dict[int, Type] = field(default_factory=dict)
    constants: dict[int, Constant] = field(default_factory=dict)
    variables: dict[int, Variable] = field(default_factory=dict)  # module-scope only
    functions: dict[int, Function] = field(default_factory=dict)
    # pointer/handle derivations inside functions: result id -> the id it comes from
    derived: dict[int, int] = field(default_factory=dict)
    # results that may come from several ids (OpPhi, OpSelect)
    derived_many: dict[int, tuple[int, ...]] = field(default_factory=dict)
    instruction_count: int = 0
    # False when reading stopped early (a malformed instruction): the rest is unknown.
    complete: bool = True

    def decoration(self, target: int, decoration: int) -> tuple[int, ...] | None:
        decs = self.decorations.get(target)
        return decs.get(decoration) if decs else None

    def without_arrays(self, type_id: int) -> Type | None:
        """The type inside any (runtime) arrays of type ``type_id`` (16 levels at most: a
        hostile module cannot loop)."""
        current = self.types.get(type_id)
        depth = 0
        while current is not None and current.kind in ("array", "runtime_array") \
                and depth < 16:
            current, depth = self.types.get(current.element), depth + 1
        return current

    def entry_point(self, name: str | None) -> EntryPoint | None:
        for ep in self.entry_points:
            if name is None or ep.name == name:
                return ep
        return None
