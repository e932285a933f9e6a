"""From the evaluated body to :class:`~.records.Access` records: every read and write of
a descriptor or of workgroup-shared memory, its coordinates, and the conditions under
which it runs.

The conditions of an instruction are those of the two-way branches that dominate its
block (the side that leads to it is entered from the branch alone): ``if (i < n)`` around
it, ``if (gid.x >= w) return;`` before it, a loop's test around its body. Branches inside
loops the block is not in are left out (they decide when the loop ends, and it ends).
The conditions are *exact* only when nothing else can keep control from the block: the
other side of every recorded branch removed, no return must be reachable from the entry
without passing the block, and no loop around it may be left early (``break``). What is
not exact sets ``opaque_guard``.
"""

from __future__ import annotations

from ..grammar import OP, op_name
from ..reflect import explicit_size
from ..workgroup import natural_size
from .body import Body, Instruction
from .evaluate import ATOMICS, SC, Evaluation
from .forms import Poly
from .records import Access, Condition, Place
from .values import UNKNOWN, Handle, Pointer, Value, Vec, conjuncts

_RETURNS = frozenset(OP[n] for n in ("OpReturn", "OpReturnValue", "OpKill",
                                     "OpTerminateInvocation"))
_IMAGE_READS = frozenset(OP[n] for n in ("OpImageRead", "OpImageFetch",
                                         "OpImageSparseRead", "OpImageSparseFetch"))
_SAMPLES = frozenset(code for name, code in OP.items()
                     if name.startswith(("OpImageSample", "OpImageSparseSample",
                                         "OpImageGather", "OpImageDrefGather",
                                         "OpImageSparseGather", "OpImageSparseDrefGather")))
_COOPERATIVE_NV = frozenset({OP["OpCooperativeMatrixLoadNV"],
                             OP["OpCooperativeMatrixStoreNV"]})
UNKNOWN_ADDRESS = ("the address is not an affine expression of the invocation IDs "
                   "(it depends on data, or on arithmetic the analysis does not follow)")
# (the `unknown` of a read through a sampler: texture(), textureLod(), SampleLevel...)
SAMPLED = "sampled with floating-point coordinates"


class Collector:
    def __init__(self, evaluation: Evaluation) -> None:
        self.ev = evaluation
        self.body: Body = evaluation.body
        self.accesses: list[Access] = []
        self._guards: dict[int, tuple[tuple[Condition, ...], bool]] = {}
        self._exits = {header: self._exit_count(members)
                       for header, members in self.body.loops.items()}
        self._matrix = 0

    def run(self) -> list[Access]:
        for label in self.body.order:
            for position, inst in enumerate(self.body.blocks[label].instructions):
                self._instruction(inst, label, position)
        return self.accesses

    # -- which instructions ---------------------------------------------------------

    def _instruction(self, inst: Instruction, label: int, position: int) -> None:
        op, a, v = inst.opcode, inst.operands, self.ev.value
        if op == OP["OpStore"]:
            self._memory("write", v(a[0]), inst, label, position)
        elif op == OP["OpLoad"]:
            self._memory("read", v(a[0]), inst, label, position, inst.type_id)
        elif op in ATOMICS:
            kind = "read" if op == OP["OpAtomicLoad"] else \
                "write" if op in (OP["OpAtomicStore"], OP["OpAtomicFlagClear"]) else "atomic"
            self._memory(kind, v(a[0]), inst, label, position)
        elif op == OP["OpCopyMemory"] or op == OP["OpCopyMemorySized"]:
            self._memory("write", v(a[0]), inst, label, position)
            self._memory("read", v(a[1]), inst, label, position)
        elif op == OP["OpImageWrite"]:
            self._image("write", v(a[0]), v(a[1]), inst, label, position)
        elif op in _IMAGE_READS:
            self._image("read", v(a[0]), v(a[1]), inst, label, position)
        elif op in _SAMPLES:
            self._image("read", v(a[0]), UNKNOWN, inst, label, position, SAMPLED)
        elif op == OP["OpTensorWriteARM"]:
            self._tensor("write", v(a[0]), v(a[1]), self._elements_of_value(a[2]),
                         inst, label, position)
        elif op == OP["OpTensorReadARM"]:
            self._tensor("read", v(a[0]), v(a[1]), self._elements(inst.type_id),
                         inst, label, position)
        elif op == OP["OpCooperativeMatrixStoreKHR"]:
            self._matrix_access("write", v(a[0]), a[1], a[2:], inst, label, position)
        elif op == OP["OpCooperativeMatrixLoadKHR"]:
            self._matrix_access("read", v(a[0]), inst.type_id, a[1:], inst, label, position,
                                matrix_is_type=True)
        elif op in _COOPERATIVE_NV:
            kind = "write" if op == OP["OpCooperativeMatrixStoreNV"] else "read"
            pointer = v(a[0])
            if isinstance(pointer, Pointer):
                self._add(kind, pointer.root, None, 0, inst, label, position,
                          "NV cooperative-matrix layouts are not followed")

    def _memory(self, kind: str, pointer: Value, inst: Instruction, label: int,
                position: int, type_id: int = 0) -> None:
        if not isinstance(pointer, Pointer):
            return
        storage = pointer.storage
        if storage == SC["Image"]:  # an atomic on an image texel
            coordinates = pointer.path if all(p is not None for p in pointer.path) else None
            self._add(kind, pointer.root, coordinates, 1, inst, label, position)  # type: ignore
            return
        if storage not in (SC["StorageBuffer"], SC["Uniform"], SC["Workgroup"]):
            return
        size = natural_size if storage == SC["Workgroup"] else explicit_size
        width = size(self.ev.module, type_id or pointer.type_id)
        coordinates = (pointer.offset,) if pointer.offset is not None else None
        self._add(kind, pointer.root, coordinates, width, inst, label, position)

    def _image(self, kind: str, handle: Value, coordinate: Value, inst: Instruction,
               label: int, position: int, why: str | None = None) -> None:
        if not isinstance(handle, Handle):
            return
        items = coordinate.items if isinstance(coordinate, Vec) else (coordinate,)
        known = all(isinstance(i, Poly) for i in items)
        self._add(kind, handle.root, tuple(items) if known else None,  # type: ignore[arg-type]
                  1, inst, label, position, why)

    def _tensor(self, kind: str, handle: Value, coordinate: Value, width: int,
                inst: Instruction, label: int, position: int) -> None:
        if not isinstance(handle, Handle):
            return
        items = coordinate.items if isinstance(coordinate, Vec) else ()
        known = bool(items) and all(isinstance(i, Poly) for i in items)
        self._add(kind, handle.root, tuple(items) if known else None,  # type: ignore[arg-type]
                  width, inst, label, position)

    def _matrix_access(self, kind: str, pointer: Value, matrix: int,
                       rest: tuple[int, ...], inst: Instruction, label: int, position: int,
                       matrix_is_type: bool = False) -> None:
        """A cooperative-matrix tile: rows x columns elements, ``stride`` elements apart
        (rows for row-major, columns for column-major)."""
        if not isinstance(pointer, Pointer):
            return
        matrix_type = self.ev.type(matrix if matrix_is_type else self._type_of(matrix))
        # (the reader keeps the scope, rows, columns and use of a cooperative matrix)
        shape = matrix_type.members if matrix_type is not None \
            and matrix_type.kind == "cooperative_matrix" and len(matrix_type.members) == 4 \
            else None
        layout = self.ev.value(rest[0]) if rest else UNKNOWN
        stride = self.ev.value(rest[1]) if len(rest) > 1 else UNKNOWN
        rows = self.ev.value(shape[1]) if shape else UNKNOWN
        columns = self.ev.value(shape[2]) if shape else UNKNOWN
        element = explicit_size(self.ev.module, pointer.type_id)
        if not (isinstance(layout, Poly) and layout.is_const and isinstance(stride, Poly)
                and isinstance(rows, Poly) and rows.is_const and isinstance(columns, Poly)
                and columns.is_const and pointer.offset is not None and element > 0):
            self._add(kind, pointer.root, None, 0, inst, label, position)  # (a whole tile)
            return
        self._matrix += 1
        row, column = f"k.{self._matrix}.r", f"k.{self._matrix}.c"
        self.ev.value_sets[row] = tuple(range(rows.constant))
        self.ev.value_sets[column] = tuple(range(columns.constant))
        major, minor = (row, column) if layout.constant == 0 else (column, row)
        address = pointer.offset + (stride * Poly.symbol(major)).scale(element) \
            + Poly.symbol(minor, element)
        self._add(kind, pointer.root, (address,), element, inst, label, position)

    def _type_of(self, id_: int) -> int:
        inst = self.ev.defs.get(id_)
        return inst.type_id if inst is not None else 0

    def _elements(self, type_id: int) -> int:
        t = self.ev.type(type_id)
        if t is None:
            return 1
        if t.kind == "vector":
            return t.count
        if t.kind == "array":
            length = self.ev.module.constants.get(t.length_id)
            return length.value if length is not None and type(length.value) is int else 1
        return 1

    def _elements_of_value(self, id_: int) -> int:
        inst = self.ev.defs.get(id_)
        constant = self.ev.module.constants.get(id_)
        type_id = inst.type_id if inst is not None else constant.type_id if constant else 0
        return self._elements(type_id)

    # -- the record -----------------------------------------------------------------

    def _add(self, kind: str, root: int, coordinates: tuple[Poly, ...] | None, width: int,
             inst: Instruction, label: int, position: int, why: str | None = None) -> None:
        variable = self.ev.module.variables.get(root)
        if variable is None:
            return
        if variable.storage_class == SC["Workgroup"]:
            resource, set_, binding = "shared", -1, root
        else:
            descriptor = self.ev.descriptor(root)
            if descriptor is None:
                return
            resource = self._resource_kind(root)
            set_, binding = descriptor
        guards, opaque = self.guards(label)
        name = self.ev.descriptor_name(root)
        loops = tuple(sorted(f"t.{h}" for h in self.body.loops_of(label)))
        self.accesses.append(Access(
            kind, resource, set_, binding, name, coordinates, width, guards, opaque,
            self._place(inst, name), None if coordinates is not None
            else why or UNKNOWN_ADDRESS, label, position, loops))

    def _resource_kind(self, root: int) -> str:
        variable = self.ev.module.variables[root]
        if variable.storage_class in (SC["StorageBuffer"], SC["Uniform"]):
            return "buffer"
        pointer = self.ev.type(variable.type_id)
        base = self.ev.module.without_arrays(pointer.element) if pointer is not None else None
        return "tensor" if base is not None and base.kind == "tensor" else "image"

    def _place(self, inst: Instruction, name: str) -> Place:
        verb = "on" if inst.opcode in ATOMICS else \
            "from" if inst.opcode in (OP["OpLoad"], *_IMAGE_READS, *_SAMPLES,
                                      OP["OpTensorReadARM"],
                                      OP["OpCooperativeMatrixLoadKHR"]) else "to"
        text = f"{op_name(inst.opcode)} {verb} `{name}`"
        if inst.line is None:
            return Place(text)
        file_id, line, column = inst.line
        return Place(text, line, max(column, 1), self.body.strings.get(file_id),
                     self.body.main_file is None or file_id == self.body.main_file)

    # -- conditions -----------------------------------------------------------------

    def guards(self, label: int) -> tuple[tuple[Condition, ...], bool]:
        known = self._guards.get(label)
        if known is None:
            known = self._guards[label] = self._conditions(label)
        return known

    def _conditions(self, label: int) -> tuple[tuple[Condition, ...], bool]:
        body = self.body
        around = {h for h, members in body.loops.items() if label in members}
        found: list[Condition] = []
        opaque = any(self._exits[h] > 1 for h in around)
        removed: set[tuple[int, int]] = set()
        for dominator, successor in self.ev.dominating_branches(label):
            if any(dominator in members and h not in around
                   for h, members in body.loops.items()):
                continue  # a test inside a loop already left
            terminator = body.blocks[dominator].terminator
            assert terminator is not None
            other = terminator.operands[2] if successor == terminator.operands[1] \
                else terminator.operands[1]
            removed.add((dominator, other))
            comparisons, unclear = conjuncts(self.ev.branch_condition(dominator, successor))
            opaque |= unclear
            found.extend(Condition(c.form, c.op) for c in comparisons)
        opaque |= self._switch_decides(label, around)
        opaque |= self._bypassed(label, removed)
        return tuple(dict.fromkeys(found)), opaque

    def _switch_decides(self, label: int, around: set[int]) -> bool:
        for dominator in self.body.dominators(label):
            terminator = self.body.blocks[dominator].terminator
            successors = set(self.body.blocks[dominator].successors)
            if terminator is not None and terminator.opcode == OP["OpSwitch"] \
                    and len(successors) > 1 \
                    and not any(dominator in self.body.loops[h] and h not in around
                                for h in self.body.loops) \
                    and any(self.body.dominates(s, label)
                            for s in self.body.blocks[dominator].successors):
                return True
        return False

    def _bypassed(self, label: int, removed: set[tuple[int, int]]) -> bool:
        """Whether the function can return without reaching ``label`` other than by the
        recorded branches' other sides."""
        blocks = self.body.blocks
        seen = {self.body.entry}
        todo = [self.body.entry]
        while todo:
            block = todo.pop()
            if block == label:
                continue
            terminator = blocks[block].terminator
            if terminator is not None and terminator.opcode in _RETURNS:
                return True
            for successor in blocks[block].successors:
                if (block, successor) not in removed and successor not in seen:
                    seen.add(successor)
                    todo.append(successor)
        return False

    def _exit_count(self, members: set[int]) -> int:
        blocks = self.body.blocks
        count = 0
        for member in members:
            terminator = blocks[member].terminator
            if terminator is not None and terminator.opcode in _RETURNS:
                count += 1
            count += sum(1 for s in blocks[member].successors if s not in members)
        return count


def loop_tests(evaluation: Evaluation) -> dict[str, tuple[Condition, ...]]:
    """Loop counter -> the comparisons under which its loop goes on (the test at or just
    after the header: ``for (...; i < n; ...)``); loops tested elsewhere are left out."""
    body = evaluation.body
    found: dict[str, tuple[Condition, ...]] = {}
    for header, members in body.loops.items():
        block = header
        for _ in range(4):
            terminator = body.blocks[block].terminator
            if terminator is None:
                break
            if terminator.opcode == OP["OpBranchConditional"]:
                true, false = terminator.operands[1], terminator.operands[2]
                if (true in members) != (false in members):
                    stay = true if true in members else false
                    comparisons, _unclear = conjuncts(evaluation.branch_condition(block, stay))
                    counter = f"t.{header}"
                    tests = tuple(Condition(c.form, c.op) for c in comparisons
                                  if counter in c.form.symbols)
                    if tests:
                        found[counter] = tests
                break
            successors = body.blocks[block].successors
            if len(successors) != 1 or successors[0] not in members \
                    or body.predecessors[successors[0]] != [block]:
                break
            block = successors[0]
    return found
