"""Symbolic evaluation of the entry point: every SSA value as a polynomial of the
invocation's built-ins, loop counters and runtime constants, or :data:`~.values.UNKNOWN`.

The module is the optimizer's output (:mod:`.optimize`): one function, function variables
rewritten to SSA, constants folded. One pass over the blocks in reverse post-order gives
each value; a loop header's ``OpPhi`` starts as a placeholder symbol ``p.<id>`` and is
resolved afterwards, when the back edge's value is known: ``i = init + step * t`` for an
induction variable (``t`` counts the iterations), a listed value set for one updated by
arithmetic that is not affine (``s >>= 1``), unknown otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..grammar import OP, enum_value, ops_of_class
from ..module import Module, Type
from ..reflect import explicit_size, member_offset
from ..workgroup import natural_size
from .body import Body, Instruction
from .forms import Poly
from .values import (
    BOOLEAN,
    FALSE,
    MAX_NESTING,
    TRUE,
    UNKNOWN,
    Cmp,
    Handle,
    Pointer,
    Truth,
    Value,
    Vec,
    compare,
    depth,
    logic,
    negate,
    substitute,
    vector,
)

SC = {name: enum_value("StorageClass", name) for name in (
    "UniformConstant", "Input", "Uniform", "Workgroup", "Private", "Function", "PushConstant",
    "StorageBuffer", "Image")}
_DESCRIPTOR_CLASSES = frozenset({SC["UniformConstant"], SC["Uniform"], SC["StorageBuffer"]})
_DEC = {name: enum_value("Decoration", name) for name in (
    "BuiltIn", "DescriptorSet", "Binding", "ArrayStride", "BufferBlock")}
_BUILTIN = {enum_value("BuiltIn", name): name for name in (
    "GlobalInvocationId", "LocalInvocationId", "WorkgroupId", "NumWorkgroups",
    "LocalInvocationIndex", "WorkgroupSize")}
AXES = "xyz"
MAX_LISTED = 4096  # values of a loop variable followed by simulation

_COMPARISONS = {
    OP["OpIEqual"]: "==", OP["OpINotEqual"]: "!=",
    OP["OpULessThan"]: "<", OP["OpSLessThan"]: "<",
    OP["OpULessThanEqual"]: "<=", OP["OpSLessThanEqual"]: "<=",
    OP["OpUGreaterThan"]: ">", OP["OpSGreaterThan"]: ">",
    OP["OpUGreaterThanEqual"]: ">=", OP["OpSGreaterThanEqual"]: ">=",
}
_SAME = frozenset(OP[n] for n in ("OpCopyObject", "OpBitcast", "OpUConvert", "OpSConvert",
                                  "OpCopyLogical"))
_CHAINS = frozenset(OP[n] for n in ("OpAccessChain", "OpInBoundsAccessChain"))
_PTR_CHAINS = frozenset(OP[n] for n in ("OpPtrAccessChain", "OpInBoundsPtrAccessChain"))
_SHIFT_RIGHT = frozenset({OP["OpShiftRightLogical"], OP["OpShiftRightArithmetic"]})
_DIVISIONS = frozenset({OP["OpUDiv"], OP["OpSDiv"]})
_REMAINDERS = frozenset({OP["OpUMod"], OP["OpSMod"], OP["OpSRem"]})
ATOMICS = ops_of_class("Atomic")


@dataclass(slots=True)
class Evaluation:
    """The values of one entry point (see :func:`evaluate`)."""

    module: Module
    body: Body
    local_size: tuple[int, int, int]
    values: dict[int, Value] = field(default_factory=dict)
    block_of: dict[int, int] = field(default_factory=dict)  # result id -> its block
    defs: dict[int, Instruction] = field(default_factory=dict)
    roots: dict[int, int] = field(default_factory=dict)  # pointer/handle -> its variable
    written: set[int] = field(default_factory=set)  # variables something writes
    # function variable -> the stores into it: (block, position, pointer path, value id);
    # the path is None when it is not made of constants
    local_stores: dict[int, list[tuple[int, int, tuple[int, ...] | None, int]]] = field(
        default_factory=dict)
    value_sets: dict[str, tuple[int, ...]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    # loop header -> its phis, each a placeholder symbol until the loops are resolved
    loop_phis: dict[int, list[Instruction]] = field(default_factory=dict)

    # -- operands ---------------------------------------------------------------------

    def value(self, id_: int) -> Value:
        known = self.values.get(id_)
        if known is not None:
            return known
        constant = self.module.constants.get(id_)
        if constant is not None:
            return self._constant(id_)
        variable = self.module.variables.get(id_)
        if variable is not None:
            pointer = self.module.types.get(variable.type_id)
            return Pointer(id_, variable.storage_class, Poly(), (),
                           pointer.element if pointer is not None else 0)
        return UNKNOWN

    def _constant(self, id_: int, depth: int = 0) -> Value:
        constant = self.module.constants[id_]
        if constant.parts and depth < 8:
            return Vec(tuple(self._constant(p, depth + 1) if p in self.module.constants
                             else UNKNOWN for p in constant.parts))
        value = constant.value
        if isinstance(value, bool):
            return TRUE if value else FALSE
        if type(value) is int:
            t = self.module.types.get(constant.type_id)
            if t is not None and t.kind == "vector":  # OpConstantNull of a vector
                return Vec((Poly.const(value),) * t.count)
            return Poly.const(value)
        return UNKNOWN

    def type(self, id_: int) -> Type | None:
        return self.module.types.get(id_)

    # -- the pass ---------------------------------------------------------------------

    def run(self) -> None:
        self._prescan()
        for label in self.body.order:
            for position, inst in enumerate(self.body.blocks[label].instructions):
                if inst.result:
                    self.block_of[inst.result] = label
                    self.values[inst.result] = self.step(inst, label, position)
        self._resolve_loops()

    def _prescan(self) -> None:
        """Definitions, the variable under each pointer, what is written, and the stores
        into function variables (forwarded to their loads)."""
        store, atomic_store = OP["OpStore"], OP["OpAtomicStore"]
        writes_first = {store, atomic_store, OP["OpImageWrite"], OP["OpTensorWriteARM"],
                        OP["OpCooperativeMatrixStoreKHR"], OP["OpCooperativeMatrixStoreNV"]}
        for label in self.body.order:
            for position, inst in enumerate(self.body.blocks[label].instructions):
                op, operands = inst.opcode, inst.operands
                if inst.result:
                    self.defs[inst.result] = inst
                    if op in _CHAINS or op in _PTR_CHAINS or op in _SAME \
                            or op in (OP["OpLoad"], OP["OpSampledImage"], OP["OpImage"],
                                      OP["OpImageTexelPointer"]):
                        self.roots[inst.result] = self.roots.get(operands[0], operands[0])
                    if op == OP["OpVariable"] and len(operands) > 1:  # with initializer
                        self.local_stores.setdefault(inst.result, []).append(
                            (label, position, (), operands[1]))
                if op in writes_first or (op in ATOMICS and op != OP["OpAtomicLoad"]):
                    self.written.add(self.roots.get(operands[0], operands[0]))
                if op == store:
                    root = self.roots.get(operands[0], operands[0])
                    if root in self.defs and self.defs[root].opcode == OP["OpVariable"]:
                        self.local_stores.setdefault(root, []).append(
                            (label, position, self._chain_path(operands[0]), operands[1]))

    def _chain_path(self, pointer: int) -> tuple[int, ...] | None:
        """The constant indices from a function variable to ``pointer`` (None when one
        is not a constant, or pointer arithmetic is in the way)."""
        path: list[int] = []
        current = pointer
        while current in self.defs and self.defs[current].opcode != OP["OpVariable"]:
            inst = self.defs[current]
            if inst.opcode in _CHAINS:
                indices = [self.module.constants.get(i) for i in inst.operands[1:]]
                if any(c is None or type(c.value) is not int for c in indices):
                    return None
                path[:0] = [c.value for c in indices]  # type: ignore[union-attr,misc]
            elif inst.opcode not in _SAME:
                return None
            current = inst.operands[0]
        return tuple(path)

    # -- one instruction --------------------------------------------------------------

    def step(self, inst: Instruction, label: int, position: int) -> Value:  # noqa: C901
        op, a = inst.opcode, inst.operands
        v = self.value
        if op == OP["OpPhi"]:
            return self._phi(inst, label)
        if op == OP["OpLoad"]:
            return self._load(inst, label, position)
        if op in _CHAINS:
            return self._chain(v(a[0]), a[1:])
        if op in _PTR_CHAINS:
            base = v(a[0])
            return Pointer(base.root, base.storage, None, (), inst.type_id) \
                if isinstance(base, Pointer) else UNKNOWN
        if op == OP["OpVariable"]:
            pointer = self.type(inst.type_id)
            return Pointer(inst.result, a[0], Poly(), (),
                           pointer.element if pointer is not None else 0)
        if op in _SAME:
            return v(a[0])
        if op in (OP["OpSampledImage"], OP["OpImage"]):
            handle = v(a[0])
            return handle if isinstance(handle, Handle) else UNKNOWN
        if op == OP["OpImageTexelPointer"]:
            handle = v(a[0])
            coordinate = v(a[1])
            items = coordinate.items if isinstance(coordinate, Vec) else (coordinate,)
            return Pointer(handle.root, SC["Image"], None, tuple(
                i if isinstance(i, Poly) else None for i in items), inst.type_id) \
                if isinstance(handle, Pointer) else UNKNOWN
        if op in (OP["OpIAdd"], OP["OpISub"], OP["OpIMul"]):
            return _componentwise(v(a[0]), v(a[1]), {
                OP["OpIAdd"]: Poly.__add__, OP["OpISub"]: Poly.__sub__,
                OP["OpIMul"]: Poly.times}[op])
        if op == OP["OpSNegate"]:
            x = v(a[0])
            return -x if isinstance(x, Poly) else UNKNOWN
        if op == OP["OpShiftLeftLogical"]:
            return _componentwise(v(a[0]), v(a[1]), lambda x, s: x.scale(2 ** s.constant)
                                  if s.is_const and 0 <= s.constant < 63 else None)
        if op in _SHIFT_RIGHT:
            return _componentwise(v(a[0]), v(a[1]), lambda x, s: x.exact_div(2 ** s.constant)
                                  if s.is_const and 0 <= s.constant < 63 else None)
        if op in _DIVISIONS:
            return _componentwise(v(a[0]), v(a[1]), lambda x, d: x.exact_div(d.constant)
                                  if d.is_const else None)
        if op in _REMAINDERS:
            return _componentwise(v(a[0]), v(a[1]), _remainder)
        if op == OP["OpBitwiseAnd"]:
            return _componentwise(v(a[0]), v(a[1]), lambda x, y: Poly.const(
                x.constant & y.constant) if x.is_const and y.is_const else None)
        if op == OP["OpCompositeConstruct"]:
            return self._construct(inst)
        if op == OP["OpCompositeExtract"]:
            return _extract(v(a[0]), a[1:])
        if op == OP["OpCompositeInsert"]:
            return _insert(v(a[1]), a[2:], v(a[0]))
        if op == OP["OpVectorShuffle"]:
            first, second = v(a[0]), v(a[1])
            if not isinstance(first, Vec) or not isinstance(second, Vec):
                return UNKNOWN
            items = first.items + second.items
            return vector(tuple(items[k] if k < len(items) else UNKNOWN for k in a[2:]))
        if op in _COMPARISONS:
            return compare(v(a[0]), v(a[1]), _COMPARISONS[op])
        if op in (OP["OpLogicalAnd"], OP["OpLogicalOr"]):
            kind = "and" if op == OP["OpLogicalAnd"] else "or"
            return _componentwise_logic(kind, v(a[0]), v(a[1]))
        if op == OP["OpLogicalNot"]:
            return negate(v(a[0]))
        if op in (OP["OpAny"], OP["OpAll"]):
            tested = v(a[0])
            if not isinstance(tested, Vec):
                return UNKNOWN
            return logic("or" if op == OP["OpAny"] else "and", tested.items)
        if op == OP["OpSelect"]:
            return _select(v(a[0]), v(a[1]), v(a[2]))
        if op == OP["OpArrayLength"]:
            return self._array_length(a[0], a[1])
        if op in (OP["OpImageQuerySize"], OP["OpImageQuerySizeLod"]):
            return self._image_size(a[0], inst.type_id)
        if op == OP["OpTensorQuerySizeARM"]:
            dimension = v(a[1])
            descriptor = self.descriptor(self.roots.get(a[0], a[0]))
            if descriptor is None or not isinstance(dimension, Poly) or not dimension.is_const:
                return UNKNOWN
            return Poly.symbol(f"tsz.{descriptor[0]}.{descriptor[1]}.{dimension.constant}")
        return UNKNOWN

    # -- pieces -------------------------------------------------------------------------

    def _phi(self, inst: Instruction, label: int) -> Value:
        pairs = list(zip(inst.operands[0::2], inst.operands[1::2], strict=False))
        if label in self.body.loops:  # resolved once the back edges are known
            self.loop_phis.setdefault(label, []).append(inst)
            return Poly.symbol(f"p.{inst.result}")
        incoming = [self.value(value) for value, _parent in pairs]
        if incoming and all(i == incoming[0] for i in incoming):
            return incoming[0]
        if all(isinstance(i, BOOLEAN) for i in incoming):
            # A boolean built by short-circuit control flow (`a || b`): each incoming
            # value under the condition of its edge.
            return logic("or", tuple(
                logic("and", (self.edge_condition(parent, label), self.value(value)))
                for value, parent in pairs))
        return UNKNOWN

    def edge_condition(self, parent: int, merge: int) -> Value:
        """What holds when control reaches ``merge`` from ``parent``: the branch that
        takes it there, and the branches on the way from the merge's dominator."""
        conditions: list[Value] = []
        terminator = self.body.blocks[parent].terminator
        if terminator is not None and terminator.opcode == OP["OpBranchConditional"]:
            condition = self.value(terminator.operands[0])
            true, false = terminator.operands[1], terminator.operands[2]
            if true != false:
                conditions.append(condition if merge == true else negate(condition))
        header = self.body.idom.get(merge, merge)
        for dominator, successor in self.dominating_branches(parent):
            if not self.body.dominates(header, dominator):
                break
            conditions.append(self.branch_condition(dominator, successor))
        return logic("and", tuple(conditions))

    def branch_condition(self, block: int, successor: int) -> Value:
        """The condition under which ``block``'s two-way branch goes to ``successor``."""
        terminator = self.body.blocks[block].terminator
        assert terminator is not None
        condition = self.value(terminator.operands[0])
        return condition if successor == terminator.operands[1] else negate(condition)

    def dominating_branches(self, label: int) -> list[tuple[int, int]]:
        """(dominator, its successor that leads to ``label``) for each strict dominator
        ending in a two-way branch whose chosen side is entered only from it."""
        found = []
        body = self.body
        for dominator in body.dominators(label):
            terminator = body.blocks[dominator].terminator
            if terminator is None or terminator.opcode != OP["OpBranchConditional"]:
                continue
            true, false = terminator.operands[1], terminator.operands[2]
            if true == false:
                continue
            for successor in (true, false):
                if body.dominates(successor, label) and all(
                        p == dominator or body.dominates(successor, p)
                        for p in body.predecessors[successor]):
                    found.append((dominator, successor))
        return found

    def _construct(self, inst: Instruction) -> Value:
        parts = [self.value(p) for p in inst.operands]
        if any(depth(p) > MAX_NESTING for p in parts):
            return UNKNOWN
        t = self.type(inst.type_id)
        if t is not None and t.kind == "vector":  # vec4(v.xy, z, w): flatten
            flat: list[Value] = []
            for part in parts:
                flat.extend(part.items if isinstance(part, Vec) else (part,))
            return vector(tuple(flat))
        return vector(tuple(parts))

    def _chain(self, base: Value, indices: tuple[int, ...]) -> Value:
        if not isinstance(base, Pointer):
            return UNKNOWN
        offset = base.offset
        path = list(base.path)
        current = self.type(base.type_id)
        explicit = base.storage in (SC["Uniform"], SC["StorageBuffer"], SC["PushConstant"])
        for index_id in indices:
            index = self.value(index_id)
            step = index if isinstance(index, Poly) else None
            path.append(step)
            if current is None:
                offset = None
                break
            if current.kind == "struct":
                if step is None or not step.is_const or step.constant >= len(current.members):
                    return UNKNOWN
                k = step.constant
                member = member_offset(self.module, current.id, k) if explicit else \
                    sum(natural_size(self.module, m) for m in current.members[:k])
                offset = offset + Poly.const(member) if offset is not None \
                    and member is not None else None
                current = self.type(current.members[k])
                continue
            if current.kind in ("array", "runtime_array"):
                stride_dec = self.module.decoration(current.id, _DEC["ArrayStride"])
                stride = stride_dec[0] if stride_dec else (
                    None if explicit else natural_size(self.module, current.element))
            elif current.kind == "vector":
                stride = (explicit_size if explicit else natural_size)(
                    self.module, current.element)
            else:  # matrices and the rest: the layout is not followed
                stride = None
            offset = offset + step.scale(stride) if offset is not None and step is not None \
                and stride is not None else None
            current = self.type(current.element)
        return Pointer(base.root, base.storage, offset, tuple(path),
                       current.id if current is not None else 0)

    def _load(self, inst: Instruction, label: int, position: int) -> Value:
        pointer = self.value(inst.operands[0])
        if not isinstance(pointer, Pointer):
            return UNKNOWN
        storage = pointer.storage
        if storage == SC["Input"]:
            return self._builtin(pointer)
        if storage == SC["UniformConstant"]:
            return Handle(pointer.root)
        if storage == SC["Function"]:
            return self._forwarded(pointer, label, position)
        if storage == SC["PushConstant"]:
            return self._uniform_word(pointer, inst.type_id, "pc")
        if storage in (SC["Uniform"], SC["StorageBuffer"]) \
                and pointer.root not in self.written:
            descriptor = self.descriptor(pointer.root)
            if descriptor is not None:
                return self._uniform_word(pointer, inst.type_id,
                                          f"u.{descriptor[0]}.{descriptor[1]}")
        return UNKNOWN

    def _uniform_word(self, pointer: Pointer, type_id: int, prefix: str) -> Value:
        """A push constant, or a word of a buffer the shader never writes: the same value
        in every invocation, known only at run time."""
        t = self.type(type_id)
        offset = pointer.offset
        if t is None or offset is None or not offset.is_const:
            return UNKNOWN
        if t.kind == "int":
            symbol = f"{prefix}.{offset.constant}"
            self.names.setdefault(symbol, self._member_name(pointer, prefix))
            return Poly.symbol(symbol)
        if t.kind == "vector":
            size = explicit_size(self.module, t.element)
            element = self.type(t.element)
            if element is None or element.kind != "int":
                return UNKNOWN
            items = []
            for k in range(t.count):
                symbol = f"{prefix}.{offset.constant + k * size}"
                self.names.setdefault(symbol, f"{self._member_name(pointer, prefix)}."
                                              f"{AXES[k] if k < 3 else k}")
                items.append(Poly.symbol(symbol))
            return Vec(tuple(items))
        return UNKNOWN

    def _member_name(self, pointer: Pointer, prefix: str) -> str:
        """``p.width``: the variable's name and the member names along the chain."""
        names = [self.module.names.get(pointer.root) or self._block_name(pointer.root)
                 or ("push constants" if prefix == "pc" else "buffer")]
        variable = self.module.variables.get(pointer.root)
        pointee = self.type(variable.type_id) if variable is not None else None
        current = self.type(pointee.element) if pointee is not None else None
        for step in pointer.path:
            if current is None or step is None or not step.is_const:
                break
            if current.kind == "struct" and step.constant < len(current.members):
                names.append(self.module.member_names.get((current.id, step.constant),
                                                          str(step.constant)))
                current = self.type(current.members[step.constant])
            else:
                names[-1] += f"[{step.constant}]"
                current = self.type(current.element) if current.kind != "struct" else None
        return ".".join(n for n in names if n)

    def _block_name(self, variable_id: int) -> str | None:
        variable = self.module.variables.get(variable_id)
        pointer = self.type(variable.type_id) if variable is not None else None
        block = self.module.without_arrays(pointer.element) if pointer is not None else None
        return self.module.names.get(block.id) if block is not None else None

    def _builtin(self, pointer: Pointer) -> Value:
        decoration = self.module.decoration(pointer.root, _DEC["BuiltIn"])
        which = _BUILTIN.get(decoration[0]) if decoration else None
        if which is None:
            return UNKNOWN
        value = self._builtin_value(which)
        for step in pointer.path:
            if not isinstance(value, Vec) or step is None or not step.is_const \
                    or step.constant >= len(value.items):
                return UNKNOWN
            value = value.items[step.constant]
        return value

    def _builtin_value(self, which: str) -> Value:
        sizes = self.local_size
        lid = [Poly.symbol(f"lid.{a}") if sizes[k] > 1 else Poly() for k, a in enumerate(AXES)]
        wg = [Poly.symbol(f"wg.{a}") for a in AXES]
        if which == "GlobalInvocationId":
            return Vec(tuple(wg[k].scale(sizes[k]) + lid[k] for k in range(3)))
        if which == "LocalInvocationId":
            return Vec(tuple(lid))
        if which == "WorkgroupId":
            return Vec(tuple(wg))
        if which == "NumWorkgroups":
            return Vec(tuple(Poly.symbol(f"nwg.{a}") for a in AXES))
        if which == "WorkgroupSize":
            return Vec(tuple(Poly.const(s) for s in sizes))
        return lid[0] + lid[1].scale(sizes[0]) + lid[2].scale(sizes[0] * sizes[1])

    def _forwarded(self, pointer: Pointer, label: int, position: int) -> Value:
        """The value stored into a function variable, when exactly one store can reach
        this load and it dominates it (what the optimizer left for the analysis)."""
        path = self._constant_path(pointer.path)
        stores = []
        for block, at, stored_path, value_id in self.local_stores.get(pointer.root, []):
            if path is None or stored_path is None:
                return UNKNOWN
            if stored_path[:len(path)] == path[:len(stored_path)]:  # a prefix either way
                stores.append((block, at, stored_path, value_id))
        if len(stores) != 1 or path is None:
            return UNKNOWN
        block, at, stored_path, value_id = stores[0]
        if len(stored_path) > len(path):
            return UNKNOWN
        if not (self.body.dominates(block, label) and (block != label or at < position)):
            return UNKNOWN
        return _extract(self.value(value_id), path[len(stored_path):])

    @staticmethod
    def _constant_path(path: tuple[Poly | None, ...]) -> tuple[int, ...] | None:
        if any(step is None or not step.is_const for step in path):
            return None
        return tuple(step.constant for step in path)  # type: ignore[union-attr]

    def _array_length(self, pointer_id: int, member: int) -> Value:
        pointer = self.value(pointer_id)
        if not isinstance(pointer, Pointer):
            return UNKNOWN
        descriptor = self.descriptor(pointer.root)
        struct = self.type(pointer.type_id)
        if descriptor is None or struct is None or struct.kind != "struct" \
                or member >= len(struct.members):
            return UNKNOWN
        offset = member_offset(self.module, struct.id, member)
        array = self.type(struct.members[member])
        stride = self.module.decoration(array.id, _DEC["ArrayStride"]) if array else None
        if offset is None or not stride:
            return UNKNOWN
        symbol = f"len.{descriptor[0]}.{descriptor[1]}.{offset}.{stride[0]}"
        self.names.setdefault(symbol, f"{self.descriptor_name(pointer.root)}.length()")
        return Poly.symbol(symbol)

    def _image_size(self, image_id: int, type_id: int) -> Value:
        descriptor = self.descriptor(self.roots.get(image_id, image_id))
        if descriptor is None:
            return UNKNOWN
        t = self.type(type_id)
        count = t.count if t is not None and t.kind == "vector" else 1
        items = []
        name = self.descriptor_name(self.roots.get(image_id, image_id))
        for axis in range(count):
            symbol = f"isz.{descriptor[0]}.{descriptor[1]}.{axis}"
            self.names.setdefault(symbol, f"imageSize({name}).{AXES[axis]}")
            items.append(Poly.symbol(symbol))
        return Vec(tuple(items)) if count > 1 else items[0]

    # -- descriptors ------------------------------------------------------------------

    def descriptor(self, variable_id: int) -> tuple[int, int] | None:
        variable = self.module.variables.get(variable_id)
        if variable is None or variable.storage_class not in _DESCRIPTOR_CLASSES:
            return None
        set_ = self.module.decoration(variable_id, _DEC["DescriptorSet"])
        binding = self.module.decoration(variable_id, _DEC["Binding"])
        return (set_[0] if set_ else 0, binding[0] if binding else 0)

    def descriptor_name(self, variable_id: int) -> str:
        return self.module.names.get(variable_id) or self._block_name(variable_id) \
            or f"%{variable_id}"

    # -- loops ------------------------------------------------------------------------

    def _resolve_loops(self) -> None:
        """Each loop-header phi as ``init + step * t``, as a listed value set, or unknown;
        then every value is rewritten with that."""
        mapping: dict[str, Poly | None] = {}
        for header, phis in self.loop_phis.items():
            members = self.body.loops[header]
            for inst in phis:
                mapping[f"p.{inst.result}"] = self._induction(header, members, inst)
        # Inner loops start from outer loops' values: resolve until nothing is left.
        for _ in range(len(mapping) + 1):
            changed = False
            for symbol, form in mapping.items():
                if form is not None and any(s.startswith("p.") for s in form.symbols):
                    mapping[symbol] = form.substitute(mapping)
                    changed = True
            if not changed:
                break
        for id_, value in self.values.items():
            if _mentions(value, mapping):
                self.values[id_] = substitute(value, mapping)

    def _induction(self, header: int, members: set[int], inst: Instruction) -> Poly | None:
        pairs = list(zip(inst.operands[0::2], inst.operands[1::2], strict=False))
        outside = [self.value(v) for v, parent in pairs if parent not in members]
        inside = [self.value(v) for v, parent in pairs if parent in members]
        if len(outside) != 1 or not inside or not isinstance(outside[0], Poly):
            return None
        init = outside[0]
        me = f"p.{inst.result}"
        steps = {(i - Poly.symbol(me)) if isinstance(i, Poly) else None for i in inside}
        if len(steps) == 1:
            step = steps.pop()
            if step is not None and not any(s.startswith("p.") for s in step.symbols):
                return init + step * Poly.symbol(f"t.{header}")
        listed = self._simulate(header, members, inst, init)
        if listed is None:
            return None
        symbol = f"v.{inst.result}"
        self.value_sets[symbol] = listed
        return Poly.symbol(symbol)

    def _simulate(self, header: int, members: set[int], inst: Instruction,
                  init: Poly) -> tuple[int, ...] | None:
        """The values a loop variable takes when its start is a constant and its update
        and the loop's exit test depend on it alone (``for (s = 32; s > 0; s >>= 1)``)."""
        if not init.is_const:
            return None
        updates = {v for v, parent in zip(inst.operands[0::2], inst.operands[1::2],
                                          strict=False) if parent in members}
        terminator = self.body.blocks[header].terminator
        if len(updates) != 1 or terminator is None \
                or terminator.opcode != OP["OpBranchConditional"]:
            return None
        update, condition_id = updates.pop(), terminator.operands[0]
        stay = terminator.operands[1] in members
        values: list[int] = []
        current = init.constant
        while len(values) <= MAX_LISTED:
            env = {inst.result: current}
            holds = self._concrete(condition_id, env)
            if holds is None:
                return None
            if bool(holds) != stay:
                return tuple(values)
            values.append(current)
            following = self._concrete(update, env)
            if following is None:
                return None
            current = following
        return None

    def _concrete(self, id_: int, env: dict[int, int], depth: int = 0) -> int | None:
        """The number ``id_`` computes when the phis in ``env`` have those values."""
        if id_ in env:
            return env[id_]
        constant = self.module.constants.get(id_)
        if constant is not None:
            value = constant.value
            return int(value) if isinstance(value, (int, bool)) else None
        inst = self.defs.get(id_)
        if inst is None or depth > 32 or inst.opcode == OP["OpPhi"]:
            return None
        args = [self._concrete(o, env, depth + 1) for o in inst.operands[:2]]
        return _concrete_op(inst, args)


def _concrete_op(inst: Instruction, args: list[int | None]) -> int | None:
    op = inst.opcode
    if op in _SAME:
        return args[0]
    if len(args) < 2 or args[0] is None or args[1] is None:
        return None
    x, y = args[0], args[1]
    comparison = _COMPARISONS.get(op)
    if comparison is not None:
        return int({"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y,
                    ">=": x >= y}[comparison])
    if op == OP["OpIAdd"]:
        return x + y
    if op == OP["OpISub"]:
        return x - y
    if op == OP["OpIMul"]:
        return x * y
    if op == OP["OpBitwiseAnd"]:
        return x & y
    if op == OP["OpBitwiseOr"]:
        return x | y
    if op in _SHIFT_RIGHT or op == OP["OpShiftLeftLogical"]:
        if not 0 <= y < 64:
            return None
        return x << y if op == OP["OpShiftLeftLogical"] else x >> y
    if op in _DIVISIONS or op in _REMAINDERS:
        if y == 0:
            return None
        if op in _DIVISIONS:
            return x // y if op == OP["OpUDiv"] else int(x / y)
        return x % y
    return None


def _remainder(x: Poly, d: Poly) -> Poly | None:
    if not d.is_const or d.constant == 0:
        return None
    if x.is_const:
        return Poly.const(x.constant % d.constant)
    return Poly() if x.exact_div(d.constant) is not None else None


def _componentwise(a: Value, b: Value, combine) -> Value:
    if isinstance(a, Vec) and isinstance(b, Vec) and len(a.items) == len(b.items):
        return vector(tuple(_componentwise(x, y, combine)
                         for x, y in zip(a.items, b.items, strict=True)))
    if isinstance(a, Poly) and isinstance(b, Poly):
        result = combine(a, b)
        return UNKNOWN if result is None else result
    return UNKNOWN


def _componentwise_logic(kind: str, a: Value, b: Value) -> Value:
    if isinstance(a, Vec) and isinstance(b, Vec) and len(a.items) == len(b.items):
        return vector(tuple(logic(kind, (x, y)) for x, y in zip(a.items, b.items, strict=True)))
    return logic(kind, (a, b))


def _select(condition: Value, yes: Value, no: Value) -> Value:
    if condition == TRUE:
        return yes
    if condition == FALSE:
        return no
    if yes == no:
        return yes
    if isinstance(yes, Truth) or isinstance(no, Truth) or isinstance(yes, Cmp) \
            or isinstance(no, Cmp):
        return logic("or", (logic("and", (condition, yes)),
                            logic("and", (negate(condition), no))))
    return UNKNOWN


def _extract(value: Value, indices: tuple[int, ...]) -> Value:
    for index in indices:
        if not isinstance(value, Vec) or index >= len(value.items):
            return UNKNOWN
        value = value.items[index]
    return value


def _insert(composite: Value, indices: tuple[int, ...], part: Value) -> Value:
    if not indices:
        return part
    if not isinstance(composite, Vec) or indices[0] >= len(composite.items):
        return UNKNOWN
    items = list(composite.items)
    items[indices[0]] = _insert(items[indices[0]], indices[1:], part)
    return vector(tuple(items))


def _mentions(value: Value, mapping: dict[str, Poly | None]) -> bool:
    if isinstance(value, Poly):
        return any(s in mapping for s in value.symbols)
    if isinstance(value, Cmp):
        return any(s in mapping for s in value.form.symbols)
    if isinstance(value, Vec):
        return any(_mentions(i, mapping) for i in value.items)
    if isinstance(value, Pointer):
        return True
    items = getattr(value, "items", None)
    if items is not None:
        return any(_mentions(i, mapping) for i in items)
    item = getattr(value, "item", None)
    return item is not None and _mentions(item, mapping)


def evaluate(module: Module, body: Body, local_size: tuple[int, int, int]) -> Evaluation:
    evaluation = Evaluation(module, body, local_size)
    evaluation.run()
    return evaluation
