"""Buffers whose elements the shader only ever reinterprets bit for bit.

``uintBitsToFloat(data[i])``, ``data[i] = floatBitsToUint(v)`` (GLSL) and ``asfloat`` /
``asuint`` (HLSL) compile to ``OpBitcast``: a buffer of uint read and written only that
way holds float bits on purpose. :func:`reinterpreted_as` answers, for one buffer, which
scalar types the entry point's code reinterprets its elements as: every value loaded from
it must go through an ``OpBitcast`` (the type it is cast to counts), every value stored
into it must come out of one (the type cast from counts), and nothing else may touch it
(atomics, copies of memory, a pointer handed to a function). Four words read and cast as
one vector (HLSL's ``ByteAddressBuffer.Load4``: four loads, ``OpCompositeConstruct``, one
``OpBitcast``) and a cast vector stored word by word (``Store4``: ``OpCompositeExtract`` of
the cast) count too. Read from the module's words when a rule asks (a buffer whose
element type disagrees with its vkformat), so the reader keeps none of it for every
module.
"""

from __future__ import annotations

from collections.abc import Sequence

from .grammar import OP, RESULT_WORD
from .module import Module
from .types import scalar_name
from .words import instructions

_LOAD, _STORE, _BITCAST = OP["OpLoad"], OP["OpStore"], OP["OpBitcast"]
_CHAINS = frozenset(OP[n] for n in ("OpAccessChain", "OpInBoundsAccessChain",
                                    "OpPtrAccessChain", "OpInBoundsPtrAccessChain",
                                    "OpCopyObject"))
_CONSTRUCT, _EXTRACT = OP["OpCompositeConstruct"], OP["OpCompositeExtract"]
_FUNCTION, _FUNCTION_END = OP["OpFunction"], OP["OpFunctionEnd"]
_ARRAY_LENGTH = OP["OpArrayLength"]  # (reads the buffer's size, not its elements)


def reinterpreted_as(words: Sequence[int], module: Module, variable_id: int
                     ) -> frozenset[str] | None:
    """The scalar types (``float32``, ...) the code reinterprets the elements of the buffer
    ``variable_id`` as, when every access to it is such a reinterpretation; None when one
    is not (or nothing accesses it)."""
    result_types: dict[int, int] = {}
    base: dict[int, int] = {}  # pointer -> the pointer or variable it comes from
    loads: list[tuple[int, int]] = []  # (result, pointer)
    stores: list[tuple[int, int]] = []  # (pointer, value)
    casts: dict[int, tuple[int, int]] = {}  # result -> (its type, operand)
    constructs: dict[int, list[int]] = {}  # result -> its constituents
    extracts: dict[int, int] = {}  # result -> the composite it is taken from
    other: list[int] = []  # ids that other instructions of a body use as pointers
    inside = False
    for i, op, count in instructions(words):
        if op == _FUNCTION:
            inside = True
        elif op == _FUNCTION_END:
            inside = False
        elif inside:
            if RESULT_WORD[op] == 2:
                result_types[words[i + 2]] = words[i + 1]
            if op == _LOAD:
                loads.append((words[i + 2], words[i + 3]))
            elif op == _STORE:
                stores.append((words[i + 1], words[i + 2]))
            elif op == _BITCAST:
                casts[words[i + 2]] = (words[i + 1], words[i + 3])
            elif op in _CHAINS:
                base[words[i + 2]] = words[i + 3]
            elif op == _CONSTRUCT:
                constructs[words[i + 2]] = list(words[i + 3:i + count])
            elif op == _EXTRACT:
                extracts[words[i + 2]] = words[i + 3]
            elif op != _ARRAY_LENGTH:
                other.extend(words[i + 1 + (RESULT_WORD[op] or 0):i + count])

    def root(pointer: int) -> int:
        for _ in range(64):
            if pointer not in base:
                break
            pointer = base[pointer]
        return pointer

    if any(root(word) == variable_id for word in other if word in base
           or word == variable_id):
        return None  # an atomic, a copy of memory, a call: not a reinterpretation
    found: set[str] = set()
    used_by: dict[int, list[int]] = {}
    for result, (_type, operand) in casts.items():
        used_by.setdefault(operand, []).append(result)
    # what uses a value other than a bitcast (a literal operand equal to an id counts too:
    # the answer can only err towards keeping the rule's warning)
    used_otherwise = set(other) | {value for _pointer, value in stores} \
        | set(extracts.values())
    part_of: dict[int, list[int]] = {}  # value -> the composites built from it
    for composite, parts in constructs.items():
        for part in parts:
            part_of.setdefault(part, []).append(composite)
    for result, pointer in loads:
        if root(pointer) != variable_id:
            continue
        # the loaded word is cast, or is one of the words of a vector that is cast
        values = [result, *part_of.get(result, ())]
        targets = [t for value in values for t in used_by.get(value, ())]
        if not targets or result in used_otherwise or any(
                value in used_otherwise or value in part_of or not used_by.get(value)
                for value in values[1:]):
            return None
        found.update(_scalar(module, casts[target][0]) for target in targets)
    for pointer, value in stores:
        if root(pointer) != variable_id:
            continue
        # the stored word is a cast, or one component of a cast vector
        cast = casts.get(extracts.get(value, value))
        if cast is None or cast[1] not in result_types:
            return None
        found.add(_scalar(module, result_types[cast[1]]))
    if not found or "" in found:
        return None
    return frozenset(found)


def _scalar(module: Module, type_id: int) -> str:
    """The scalar type of ``type_id`` or of its vector's components ("" for others)."""
    t = module.types.get(type_id)
    if t is not None and t.kind == "vector":
        t = module.types.get(t.element)
    name = scalar_name(t) if t is not None else None
    return name or ""
