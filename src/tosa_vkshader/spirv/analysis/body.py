"""The entry point's body as blocks of decoded instructions, with its control flow.

The reader (:mod:`..reader`) keeps the module-level facts (types, constants, variables,
decorations) and skips most of what is inside functions; the index analysis needs every
instruction of the one function left after inlining, the source line each comes from
(``OpLine``), and the control-flow graph: successors, predecessors, a reverse post-order,
the dominator tree and the natural loops.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field

from ..grammar import OP, RESULT_WORD

_LABEL, _LINE, _NO_LINE = OP["OpLabel"], OP["OpLine"], OP["OpNoLine"]
_FUNCTION, _FUNCTION_END = OP["OpFunction"], OP["OpFunctionEnd"]
_STRING, _SOURCE = OP["OpString"], OP["OpSource"]
_BRANCH, _BRANCH_CONDITIONAL = OP["OpBranch"], OP["OpBranchConditional"]
_SWITCH = OP["OpSwitch"]
_TERMINATORS = frozenset(OP[n] for n in (
    "OpBranch", "OpBranchConditional", "OpSwitch", "OpReturn", "OpReturnValue", "OpKill",
    "OpUnreachable", "OpTerminateInvocation"))


@dataclass(slots=True)
class Instruction:
    opcode: int
    type_id: int  # 0 when the instruction has no result type
    result: int  # 0 when it has no result
    operands: tuple[int, ...]  # the words after the result id (after the opcode if none)
    line: tuple[int, int, int] | None  # (OpString id, line, column) of the last OpLine


@dataclass(slots=True)
class Block:
    label: int
    instructions: list[Instruction] = field(default_factory=list)
    successors: tuple[int, ...] = ()

    @property
    def terminator(self) -> Instruction | None:
        return self.instructions[-1] if self.instructions else None


@dataclass(slots=True)
class Body:
    """One function: its blocks (first is the entry), and the module's debug strings."""

    function: int
    blocks: dict[int, Block]
    entry: int
    strings: dict[int, str]
    main_file: int | None  # the OpString id of the source that OpSource names
    calls_left: bool  # an OpFunctionCall survived inlining

    predecessors: dict[int, list[int]] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)  # reverse post-order from the entry
    idom: dict[int, int] = field(default_factory=dict)
    # header -> the blocks of its loop (header included), from every back edge into it
    loops: dict[int, set[int]] = field(default_factory=dict)

    def dominates(self, a: int, b: int) -> bool:
        """Whether block ``a`` dominates block ``b`` (every block dominates itself)."""
        idom = self.idom
        while True:
            if a == b:
                return True
            parent = idom.get(b)
            if parent is None or parent == b:
                return False
            b = parent

    def dominators(self, block: int) -> list[int]:
        """The strict dominators of ``block``, nearest first."""
        found: list[int] = []
        while True:
            parent = self.idom.get(block)
            if parent is None or parent == block:
                return found
            found.append(parent)
            block = parent

    def loops_of(self, block: int) -> list[int]:
        """The headers of the loops that contain ``block``."""
        return [h for h, members in self.loops.items() if block in members]


def decode(words: array | list[int], function_id: int) -> Body | None:
    """The body of function ``function_id`` of the module in ``words`` (native order),
    or None when it is not there or malformed."""
    strings: dict[int, str] = {}
    main_file: int | None = None
    blocks: dict[int, Block] = {}
    entry = 0
    inside = False
    calls_left = False
    current: Block | None = None
    line: tuple[int, int, int] | None = None
    n = len(words)
    i = 5
    while i < n:
        head = words[i]
        wc, op = head >> 16, head & 0xFFFF
        if wc == 0 or i + wc > n:
            return None
        if op == _STRING:
            strings[words[i + 1]] = _text(words, i + 2, i + wc)
        elif op == _SOURCE and wc > 3:
            main_file = words[i + 3]
        elif op == _FUNCTION:
            inside = words[i + 2] == function_id
        elif op == _FUNCTION_END:
            if inside:
                break
        elif inside:
            if op == _LINE:
                line = (words[i + 1], words[i + 2], words[i + 3])
            elif op == _NO_LINE:
                line = None
            elif op == _LABEL:
                current = Block(words[i + 1])
                blocks[current.label] = current
                if not entry:
                    entry = current.label
            elif current is not None:
                rw = RESULT_WORD[op]
                type_id = words[i + 1] if rw == 2 else 0
                result = words[i + rw] if rw else 0
                start = i + rw + 1 if rw else i + 1
                current.instructions.append(
                    Instruction(op, type_id, result, tuple(words[start:i + wc]), line))
                if op == OP["OpFunctionCall"]:
                    calls_left = True
                if op in _TERMINATORS:
                    current.successors = _successors(current.instructions[-1])
                    current = None
                    line = None
        i += wc
    if not entry:
        return None
    body = Body(function_id, blocks, entry, strings, main_file, calls_left)
    _analyse_flow(body)
    return body


def _text(words: array | list[int], start: int, end: int) -> str:
    raw = b"".join(int(w).to_bytes(4, "little") for w in words[start:end])
    return raw.split(b"\0", 1)[0].decode("utf-8", errors="replace")


def _successors(terminator: Instruction) -> tuple[int, ...]:
    op, operands = terminator.opcode, terminator.operands
    if op == _BRANCH:
        return (operands[0],)
    if op == _BRANCH_CONDITIONAL:
        return (operands[1], operands[2])
    if op == _SWITCH:
        # selector, default, then (literal, label) pairs; 32-bit selectors are the rule
        # for shaders (a 64-bit one would pair two literal words with each label).
        return (operands[1], *operands[3::2])
    return ()


def _analyse_flow(body: Body) -> None:
    blocks = body.blocks
    for block in blocks.values():
        block.successors = tuple(s for s in block.successors if s in blocks)
    predecessors: dict[int, list[int]] = {label: [] for label in blocks}
    for block in blocks.values():
        for successor in block.successors:
            predecessors[successor].append(block.label)
    body.predecessors = predecessors
    # Reverse post-order by an explicit stack (no recursion on a long chain of blocks).
    post: list[int] = []
    seen = {body.entry}
    stack = [(body.entry, iter(blocks[body.entry].successors))]
    while stack:
        label, successors = stack[-1]
        for successor in successors:
            if successor not in seen:
                seen.add(successor)
                stack.append((successor, iter(blocks[successor].successors)))
                break
        else:
            post.append(label)
            stack.pop()
    body.order = post[::-1]
    body.idom = _dominators(body.order, predecessors, body.entry)
    for label in body.order:
        for successor in blocks[label].successors:
            if body.dominates(successor, label):  # a back edge: label -> header
                body.loops.setdefault(successor, {successor}).update(
                    _natural_loop(successor, label, predecessors))


def _dominators(order: list[int], predecessors: dict[int, list[int]],
                entry: int) -> dict[int, int]:
    """Immediate dominators (Cooper, Harvey and Kennedy's iteration over the reverse
    post-order)."""
    position = {label: k for k, label in enumerate(order)}
    idom = {entry: entry}

    def intersect(a: int, b: int) -> int:
        while a != b:
            while position[a] > position[b]:
                a = idom[a]
            while position[b] > position[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for label in order[1:]:
            done = [p for p in predecessors[label] if p in idom]
            if not done:
                continue
            new = done[0]
            for other in done[1:]:
                new = intersect(other, new)
            if idom.get(label) != new:
                idom[label] = new
                changed = True
    return idom


def _natural_loop(header: int, latch: int, predecessors: dict[int, list[int]]) -> set[int]:
    members = {header, latch}
    todo = [latch]
    while todo:
        for predecessor in predecessors[todo.pop()]:
            if predecessor not in members:
                members.add(predecessor)
                todo.append(predecessor)
    return members
