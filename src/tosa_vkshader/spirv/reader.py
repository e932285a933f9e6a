"""A pure-Python SPIR-V binary reader: header, instruction stream, reflection subset.

One pass over the words. Instructions the reflection does not need are skipped by their
word count without being decoded, so the cost is dominated by the few that matter
(annotations, types, constants, variables, and the memory operations inside functions).

Malformed input is data: every problem becomes a diagnostic and the reader stops or
skips, it never raises and never loops longer than the number of words.
"""

from __future__ import annotations

import struct
import sys
from array import array

from ..diagnostics import Diagnostic
from ..rule_registry import rule
from .grammar import MAGIC, OP, RESULT_WORD, op_name, ops_of_class
from .module import (
    Constant,
    EntryPoint,
    ExecutionMode,
    Function,
    Module,
    Type,
    Variable,
)

NOT_SPIRV = rule(
    "VKS400",
    summary="The SPIR-V binary has no valid header (magic number, length, version).",
    why="Without the 5-word header and the magic number 0x07230203 the bytes are not a "
        "SPIR-V module; the driver rejects it at vkCreateShaderModule.",
    bad='"shader_language": "SPIR-V", "shader_code": "aGVsbG8gd29ybGQh"',
    good='"shader_language": "SPIR-V", "shader_code": "AwIjBwAGAQAL..."',
)
MALFORMED = rule(
    "VKS401",
    summary="A SPIR-V instruction has a zero word count or runs past the end of the module.",
    why="A truncated or corrupted module (a cut base64 string, a bad copy) cannot be parsed "
        "past that point; everything after it is lost.",
    bad="an instruction whose word count is 0, or claims 9 words where 3 remain",
    good="the complete module, exactly as the compiler wrote it",
)
ID_BOUND = rule(
    "VKS402",
    summary="A result id is 0 or not below the id bound declared in the header.",
    why="The header's bound tells consumers how many ids to allocate; ids beyond it make "
        "the module invalid and may crash naive consumers.",
    bad="header bound 20, instruction defines %25",
    good="header bound 26, instruction defines %25",
)
BAD_TYPE = rule(
    "VKS403",
    summary="A type refers to a type that is not declared before it (a cycle or a dangling "
            "reference), or an id is defined twice.",
    why="SPIR-V requires types to be declared before use (except through forward pointers); "
        "a cycle would make sizes and layouts undefined.",
    bad="%5 = OpTypeArray %6 %c  ; %6 declared later, or never",
    good="%6 = OpTypeFloat 32\n%5 = OpTypeArray %6 %c",
)

MAX_BOUND = 0x3FFFFF  # SPIRV-Tools' default universal limit on ids
MAX_ID_DIAGNOSTICS = 3

_ATOMICS = ops_of_class("Atomic")
_IMAGE_OPS = ops_of_class("Image")
_IMAGE_QUERIES = frozenset(c for c in _IMAGE_OPS if op_name(c).startswith("OpImageQuery"))
_IMAGE_HANDLE_OPS = frozenset({OP["OpSampledImage"], OP["OpImage"]})

def _string(buf: bytes, start_word: int, end_word: int) -> tuple[str, int] | None:
    """Decode a literal string starting at a word; return it and the word after it."""
    start = start_word * 4
    end = buf.find(b"\0", start, end_word * 4)
    if end < 0:
        return None
    text = buf[start:end].decode("utf-8", errors="replace")
    return text, end // 4 + 1


class _Reader:
    """State for one pass; produces a Module and diagnostics."""

    def __init__(self, pointer: str) -> None:
        self.pointer = pointer
        self.diagnostics: list[Diagnostic] = []
        self.id_problems = 0
        self.forward_pointers: set[int] = set()

    def problem(self, rule_, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(rule_.at(self.pointer, message, hint=hint))

    def bad_id(self, opcode: int, index: int, rid: int, bound: int) -> None:
        self.id_problems += 1
        if self.id_problems <= MAX_ID_DIAGNOSTICS:
            self.problem(
                ID_BOUND,
                f"{op_name(opcode)} at word {index} defines id %{rid}, outside 1..{bound - 1} "
                f"(header bound {bound})",
                hint="the module is corrupted or was edited by hand; regenerate it")

    def header(self, data: bytes) -> tuple[array, bool] | None:
        if len(data) % 4:
            self.problem(NOT_SPIRV, f"SPIR-V byte length {len(data)} is not a multiple of 4",
                         hint="the module was cut short: produce it again with the compiler")
            return None
        if len(data) < 20:
            self.problem(NOT_SPIRV, f"SPIR-V module is {len(data)} bytes, shorter than the "
                         "20-byte header")
            return None
        words = array("I")
        words.frombytes(data)
        swapped = False
        if words[0] != MAGIC:
            words.byteswap()
            if words[0] != MAGIC:
                first = int.from_bytes(data[:4], "little")
                self.problem(NOT_SPIRV, f"SPIR-V magic number is 0x{first:08x}, expected "
                             "0x07230203 (in either byte order)",
                             hint="give the compiled .spv module (glslc -o), not the shader "
                                  "source")
                return None
            swapped = True
        version = words[1]
        major, minor = (version >> 16) & 0xFF, (version >> 8) & 0xFF
        if version & 0xFF0000FF or major != 1 or minor > 6:
            self.problem(NOT_SPIRV, f"SPIR-V version word 0x{version:08x} is not a known "
                         "version (1.0 to 1.6)",
                         hint="compile for Vulkan 1.3 (SPIR-V 1.6) or older")
        bound = words[3]
        if bound == 0 or bound > MAX_BOUND:
            self.problem(ID_BOUND, f"SPIR-V header id bound is {bound}, expected 1.."
                         f"{MAX_BOUND}")
        if words[4] != 0:
            self.problem(NOT_SPIRV, f"SPIR-V header schema word is {words[4]}, must be 0")
        return words, swapped

    def read(self, data: bytes) -> Module | None:
        head = self.header(data)
        if head is None:
            return None
        words, swapped = head
        buf = data
        if swapped != (sys.byteorder == "big"):
            # Strings are packed little-endian inside words: decode from a LE copy.
            le = array("I", words)
            if sys.byteorder == "big":
                le.byteswap()
            buf = le.tobytes()
        version = words[1]
        module = Module(((version >> 16) & 0xFF, (version >> 8) & 0xFF), words[2], words[3],
                        swapped)
        self.instructions(words, buf, module)
        return module

    # The instruction loop. Long on purpose: one flat dispatch is what makes it fast.
    def instructions(self, words: array, buf: bytes, m: Module) -> None:  # noqa: C901
        n = len(words)
        bound = m.bound or 1
        result_word = RESULT_WORD
        types, constants, variables = m.types, m.constants, m.variables
        decorations, member_decorations = m.decorations, m.member_decorations
        derived, derived_many = m.derived, m.derived_many
        interesting = _HANDLED
        function: Function | None = None
        count = 0
        i = 5
        while i < n:
            head = words[i]
            wc = head >> 16
            op = head & 0xFFFF
            if wc == 0:
                self.problem(MALFORMED, f"{op_name(op)} at word {i} has word count 0; the "
                             "module cannot be read past it")
                m.complete = False
                break
            end = i + wc
            if end > n:
                self.problem(MALFORMED, f"{op_name(op)} at word {i} declares {wc} words but "
                             f"only {n - i} remain: the module is truncated")
                m.complete = False
                break
            count += 1
            rw = result_word[op]
            if rw:
                if rw >= wc:
                    self.problem(MALFORMED, f"{op_name(op)} at word {i} has {wc} words, too "
                                 "few for its result id")
                    i = end
                    continue
                rid = words[i + rw]
                if rid == 0 or rid >= bound:
                    self.bad_id(op, i, rid, bound)
                    i = end
                    continue
            if op not in interesting:
                i = end
                continue
            if wc < _MIN_WORDS.get(op, 1):
                self.problem(MALFORMED, f"{op_name(op)} at word {i} has {wc} words, fewer "
                             f"than the {_MIN_WORDS[op]} it needs")
                i = end
                continue

            # ---- inside function bodies: only memory traffic and calls ----
            if function is not None:
                if op == _LOAD:
                    derived[words[i + 2]] = words[i + 3]
                    function.accesses.append(("load", words[i + 3]))
                elif op == _STORE:
                    function.accesses.append(("store", words[i + 1]))
                elif op in _CHAINS or op == _COPY_OBJECT:
                    derived[words[i + 2]] = words[i + 3]
                elif op in _ATOMICS:
                    if op == _ATOMIC_STORE or op == _ATOMIC_FLAG_CLEAR:
                        function.accesses.append(("atomic-store", words[i + 1]))
                    elif op == _ATOMIC_LOAD:
                        function.accesses.append(("atomic-load", words[i + 3]))
                    else:
                        function.accesses.append(("atomic", words[i + 3]))
                elif op in _IMAGE_OPS:
                    if op == _IMAGE_WRITE:
                        function.accesses.append(("image-write", words[i + 1]))
                    elif op in _IMAGE_HANDLE_OPS:
                        derived[words[i + 2]] = words[i + 3]
                    elif op in _IMAGE_QUERIES:
                        function.accesses.append(("use", words[i + 3]))
                    else:
                        function.accesses.append(("image-read", words[i + 3]))
                elif op == _TEXEL_POINTER:
                    derived[words[i + 2]] = words[i + 3]
                elif op == _TENSOR_READ:
                    function.accesses.append(("tensor-read", words[i + 3]))
                elif op == _TENSOR_WRITE:
                    function.accesses.append(("tensor-write", words[i + 1]))
                elif op == _TENSOR_QUERY or op == _ARRAY_LENGTH:
                    function.accesses.append(("use", words[i + 3]))
                elif op in _COOPERATIVE_LOADS:  # result type, result, pointer, ...
                    function.accesses.append(("load", words[i + 3]))
                elif op in _COOPERATIVE_STORES:  # pointer, object, ...
                    function.accesses.append(("store", words[i + 1]))
                elif op == _COPY_MEMORY or op == _COPY_MEMORY_SIZED:
                    function.accesses.append(("store", words[i + 1]))
                    function.accesses.append(("load", words[i + 2]))
                elif op == _PHI:
                    derived_many[words[i + 2]] = tuple(words[i + 3:end:2])
                elif op == _SELECT:
                    derived_many[words[i + 2]] = (words[i + 4], words[i + 5])
                elif op == _CALL:
                    function.calls.append((words[i + 3], tuple(words[i + 4:end])))
                elif op == _PARAM:
                    function.params.append(words[i + 2])
                elif op == _FUNCTION_END:
                    function = None
                elif op == _FUNCTION:  # the previous function lacks its OpFunctionEnd
                    function = Function(words[i + 2])
                    m.functions.setdefault(function.id, function)
                # Function-scope OpVariable and anything else: nothing to keep.
                i = end
                continue

            # ---- module scope ----
            if op == _DECORATE or op == _DECORATE_ID:
                target = words[i + 1]
                decs = decorations.get(target)
                if decs is None:
                    decs = decorations[target] = {}
                decs[words[i + 2]] = tuple(words[i + 3:end])
            elif op == _MEMBER_DECORATE:
                members = member_decorations.get(words[i + 1])
                if members is None:
                    members = member_decorations[words[i + 1]] = {}
                decs = members.get(words[i + 2])
                if decs is None:
                    decs = members[words[i + 2]] = {}
                decs[words[i + 3]] = tuple(words[i + 4:end])
            elif op in _TYPE_OPS:
                self.type_decl(op, words, i, end, m)
            elif op in _CONSTANT_OPS:
                self.constant(op, words, i, end, m)
            elif op == _VARIABLE:
                rid = words[i + 2]
                if rid in variables or rid in types or rid in constants:
                    self.problem(BAD_TYPE, f"OpVariable at word {i} redefines id %{rid}")
                else:
                    variables[rid] = Variable(rid, words[i + 1], words[i + 3])
            elif op == _NAME:
                text = _string(buf, i + 2, end)
                if text is not None:
                    m.names[words[i + 1]] = text[0]
            elif op == _MEMBER_NAME:
                text = _string(buf, i + 3, end)
                if text is not None:
                    m.member_names[(words[i + 1], words[i + 2])] = text[0]
            elif op == _FUNCTION:
                function = Function(words[i + 2])
                m.functions.setdefault(function.id, function)
            elif op == _ENTRY_POINT:
                text = _string(buf, i + 3, end)
                if text is None:
                    self.problem(MALFORMED, f"OpEntryPoint at word {i}: its name is not "
                                 "terminated inside the instruction")
                else:
                    m.entry_points.append(EntryPoint(words[i + 1], words[i + 2], text[0],
                                                     tuple(words[text[1]:end])))
            elif op == _EXECUTION_MODE or op == _EXECUTION_MODE_ID:
                m.execution_modes.setdefault(words[i + 1], []).append(
                    ExecutionMode(words[i + 2], tuple(words[i + 3:end]),
                                  op == _EXECUTION_MODE_ID))
            elif op == _CAPABILITY:
                m.capabilities.append(words[i + 1])
            elif op == _EXTENSION:
                text = _string(buf, i + 1, end)
                if text is not None:
                    m.extensions.append(text[0])
            elif op == _EXT_INST_IMPORT:
                text = _string(buf, i + 2, end)
                if text is not None:
                    m.ext_inst_imports[words[i + 1]] = text[0]
            elif op == _MEMORY_MODEL:
                m.addressing_model, m.memory_model = words[i + 1], words[i + 2]
            i = end
        m.instruction_count = count
        if self.id_problems > MAX_ID_DIAGNOSTICS:
            self.problem(ID_BOUND, f"{self.id_problems - MAX_ID_DIAGNOSTICS} more ids are "
                         f"outside the header bound {bound}")

    def _known_type(self, m: Module, op: int, index: int, ref: int) -> bool:
        if ref in m.types or ref in self.forward_pointers:
            return True
        self.problem(BAD_TYPE, f"{op_name(op)} at word {index} refers to %{ref}, which is "
                     "not a type declared before it",
                     hint="types must be declared before use; a cycle between types is "
                          "only possible through OpTypeForwardPointer")
        return False

    def type_decl(self, op: int, w: array, i: int, end: int, m: Module) -> None:
        if op == _FORWARD_POINTER:
            self.forward_pointers.add(w[i + 1])
            return
        rid = w[i + 1]
        if rid in m.types or rid in m.constants:
            self.problem(BAD_TYPE, f"{op_name(op)} at word {i} redefines id %{rid}")
            return
        kind = _TYPE_KIND[op]
        t = Type(rid, kind)
        if op == _TYPE_INT:
            t.width, t.signed = w[i + 2], bool(w[i + 3])
        elif op == _TYPE_FLOAT:
            t.width = w[i + 2]
            if end - i > 3:
                t.encoding = w[i + 3]
        elif op == _TYPE_VECTOR or op == _TYPE_MATRIX:
            if not self._known_type(m, op, i, w[i + 2]):
                return
            t.element, t.count = w[i + 2], w[i + 3]
        elif op == _TYPE_ARRAY:
            if not self._known_type(m, op, i, w[i + 2]):
                return
            t.element, t.length_id = w[i + 2], w[i + 3]
        elif op == _TYPE_RUNTIME_ARRAY or op == _TYPE_SAMPLED_IMAGE:
            if not self._known_type(m, op, i, w[i + 2]):
                return
            t.element = w[i + 2]
        elif op == _TYPE_STRUCT or op == _TYPE_FUNCTION:
            members = tuple(w[i + 2:end])
            for ref in members:
                if not self._known_type(m, op, i, ref):
                    return
            t.members = members
        elif op == _TYPE_POINTER:
            # The pointee may be declared later through OpTypeForwardPointer: not checked.
            t.storage_class, t.element = w[i + 2], w[i + 3]
        elif op == _TYPE_IMAGE:
            t.element, t.dim, t.depth, t.arrayed = w[i + 2], w[i + 3], w[i + 4], w[i + 5]
            t.multisampled, t.sampled, t.image_format = w[i + 6], w[i + 7], w[i + 8]
        elif op == _TYPE_COOPERATIVE_MATRIX:
            if end - i < 7 or not self._known_type(m, op, i, w[i + 2]):
                return
            t.element, t.members = w[i + 2], tuple(w[i + 3:i + 7])
        elif op == _TYPE_TENSOR:
            if not self._known_type(m, op, i, w[i + 2]):
                return
            t.element = w[i + 2]
            if end - i > 3:
                t.rank_id = w[i + 3]
            if end - i > 4:
                t.shape_id = w[i + 4]
        m.types[rid] = t

    def constant(self, op: int, w: array, i: int, end: int, m: Module) -> None:
        rid, type_id = w[i + 2], w[i + 1]
        if rid in m.constants or rid in m.types:
            self.problem(BAD_TYPE, f"{op_name(op)} at word {i} redefines id %{rid}")
            return
        spec = op in _SPEC_OPS
        value: int | float | bool | None = None
        parts: tuple[int, ...] = ()
        if op == _CONSTANT or op == _SPEC_CONSTANT:
            value = _literal(m.types.get(type_id), w, i + 3, end)
        elif op in _TRUE_OPS:
            value = True
        elif op in _FALSE_OPS:
            value = False
        elif op == _CONSTANT_NULL:
            value = 0
        elif op == _COMPOSITE or op == _SPEC_COMPOSITE:
            parts = tuple(w[i + 3:end])
        m.constants[rid] = Constant(rid, type_id, value, spec, parts)


def _literal(t: Type | None, w: array, start: int, end: int) -> int | float | None:
    if t is None or start >= end:
        return None
    if t.kind == "int":
        raw = w[start] | (w[start + 1] << 32 if t.width > 32 and start + 1 < end else 0)
        width = min(t.width, 64) or 32
        raw &= (1 << width) - 1
        if t.signed and raw >> (width - 1):
            raw -= 1 << width
        return raw
    if t.kind == "float":
        if t.width == 32:
            return struct.unpack("<f", struct.pack("<I", w[start]))[0]
        if t.width == 64 and start + 1 < end:
            return struct.unpack("<d", struct.pack("<II", w[start], w[start + 1]))[0]
        if t.width == 16:
            return struct.unpack("<e", struct.pack("<H", w[start] & 0xFFFF))[0]
    return None


_LOAD, _STORE = OP["OpLoad"], OP["OpStore"]
_CHAINS = frozenset(OP[n] for n in ("OpAccessChain", "OpInBoundsAccessChain",
                                    "OpPtrAccessChain", "OpInBoundsPtrAccessChain"))
_COPY_OBJECT = OP["OpCopyObject"]
_ATOMIC_STORE, _ATOMIC_LOAD = OP["OpAtomicStore"], OP["OpAtomicLoad"]
_ATOMIC_FLAG_CLEAR = OP["OpAtomicFlagClear"]
_IMAGE_WRITE, _TEXEL_POINTER = OP["OpImageWrite"], OP["OpImageTexelPointer"]
_TENSOR_READ, _TENSOR_WRITE = OP["OpTensorReadARM"], OP["OpTensorWriteARM"]
_TENSOR_QUERY, _ARRAY_LENGTH = OP["OpTensorQuerySizeARM"], OP["OpArrayLength"]
_COPY_MEMORY, _COPY_MEMORY_SIZED = OP["OpCopyMemory"], OP["OpCopyMemorySized"]
_PHI, _SELECT = OP["OpPhi"], OP["OpSelect"]
# Cooperative matrices and vectors read and write buffers through their own instructions.
_COOPERATIVE_LOADS = frozenset(OP[n] for n in (
    "OpCooperativeMatrixLoadKHR", "OpCooperativeMatrixLoadNV",
    "OpCooperativeMatrixLoadTensorNV", "OpCooperativeVectorLoadNV"))
_COOPERATIVE_STORES = frozenset(OP[n] for n in (
    "OpCooperativeMatrixStoreKHR", "OpCooperativeMatrixStoreNV",
    "OpCooperativeMatrixStoreTensorNV", "OpCooperativeVectorStoreNV"))
_CALL, _PARAM = OP["OpFunctionCall"], OP["OpFunctionParameter"]
_FUNCTION, _FUNCTION_END = OP["OpFunction"], OP["OpFunctionEnd"]
_DECORATE, _DECORATE_ID = OP["OpDecorate"], OP["OpDecorateId"]
_MEMBER_DECORATE = OP["OpMemberDecorate"]
_VARIABLE, _NAME, _MEMBER_NAME = OP["OpVariable"], OP["OpName"], OP["OpMemberName"]
_ENTRY_POINT = OP["OpEntryPoint"]
_EXECUTION_MODE, _EXECUTION_MODE_ID = OP["OpExecutionMode"], OP["OpExecutionModeId"]
_CAPABILITY, _EXTENSION = OP["OpCapability"], OP["OpExtension"]
_EXT_INST_IMPORT, _MEMORY_MODEL = OP["OpExtInstImport"], OP["OpMemoryModel"]

_TYPE_KIND = {
    OP["OpTypeVoid"]: "void", OP["OpTypeBool"]: "bool", OP["OpTypeInt"]: "int",
    OP["OpTypeFloat"]: "float", OP["OpTypeVector"]: "vector", OP["OpTypeMatrix"]: "matrix",
    OP["OpTypeImage"]: "image", OP["OpTypeSampler"]: "sampler",
    OP["OpTypeSampledImage"]: "sampled_image", OP["OpTypeArray"]: "array",
    OP["OpTypeRuntimeArray"]: "runtime_array", OP["OpTypeStruct"]: "struct",
    OP["OpTypeOpaque"]: "opaque", OP["OpTypePointer"]: "pointer",
    OP["OpTypeFunction"]: "function",
    OP["OpTypeAccelerationStructureKHR"]: "acceleration_structure",
    OP["OpTypeRayQueryKHR"]: "ray_query", OP["OpTypeTensorARM"]: "tensor",
    OP["OpTypeCooperativeMatrixKHR"]: "cooperative_matrix",
}
_TYPE_OPS = frozenset(_TYPE_KIND) | {OP["OpTypeForwardPointer"]}
(_TYPE_INT, _TYPE_FLOAT, _TYPE_VECTOR, _TYPE_MATRIX, _TYPE_ARRAY, _TYPE_RUNTIME_ARRAY,
 _TYPE_SAMPLED_IMAGE, _TYPE_STRUCT, _TYPE_FUNCTION, _TYPE_POINTER, _TYPE_IMAGE,
 _TYPE_TENSOR, _FORWARD_POINTER, _TYPE_COOPERATIVE_MATRIX) = (
    OP[n] for n in ("OpTypeInt", "OpTypeFloat", "OpTypeVector", "OpTypeMatrix", "OpTypeArray",
                    "OpTypeRuntimeArray", "OpTypeSampledImage", "OpTypeStruct",
                    "OpTypeFunction", "OpTypePointer", "OpTypeImage", "OpTypeTensorARM",
                    "OpTypeForwardPointer", "OpTypeCooperativeMatrixKHR"))

_CONSTANT, _SPEC_CONSTANT = OP["OpConstant"], OP["OpSpecConstant"]
_COMPOSITE, _SPEC_COMPOSITE = OP["OpConstantComposite"], OP["OpSpecConstantComposite"]
_CONSTANT_NULL = OP["OpConstantNull"]
_TRUE_OPS = frozenset({OP["OpConstantTrue"], OP["OpSpecConstantTrue"]})
_FALSE_OPS = frozenset({OP["OpConstantFalse"], OP["OpSpecConstantFalse"]})
_SPEC_OPS = frozenset({OP["OpSpecConstantTrue"], OP["OpSpecConstantFalse"], _SPEC_CONSTANT,
                       _SPEC_COMPOSITE, OP["OpSpecConstantOp"]})
_CONSTANT_OPS = frozenset({_CONSTANT, _COMPOSITE, _CONSTANT_NULL, *_TRUE_OPS, *_FALSE_OPS,
                           *_SPEC_OPS})

_FUNCTION_OPS = frozenset({
    _LOAD, _STORE, *_CHAINS, _COPY_OBJECT, *_ATOMICS, *_IMAGE_OPS, _TEXEL_POINTER,
    _TENSOR_READ, _TENSOR_WRITE, _TENSOR_QUERY, _ARRAY_LENGTH, _COPY_MEMORY,
    _COPY_MEMORY_SIZED, _PHI, _SELECT, _CALL, _PARAM, _FUNCTION_END, _FUNCTION,
    *_COOPERATIVE_LOADS, *_COOPERATIVE_STORES,
})
_MODULE_OPS = frozenset({
    _DECORATE, _DECORATE_ID, _MEMBER_DECORATE, *_TYPE_OPS, *_CONSTANT_OPS, _VARIABLE, _NAME,
    _MEMBER_NAME, _FUNCTION, _ENTRY_POINT, _EXECUTION_MODE, _EXECUTION_MODE_ID, _CAPABILITY,
    _EXTENSION, _EXT_INST_IMPORT, _MEMORY_MODEL,
})
_HANDLED = _FUNCTION_OPS | _MODULE_OPS

# The fewest words each handled instruction must have for the reader's fixed reads.
_MIN_WORDS: dict[int, int] = {
    **dict.fromkeys(_TYPE_KIND, 2), **dict.fromkeys(_CONSTANT_OPS, 3),
    **dict.fromkeys(_ATOMICS, 4), **dict.fromkeys(_IMAGE_OPS, 4), **dict.fromkeys(_CHAINS, 4),
    **dict.fromkeys(_COOPERATIVE_LOADS, 4), **dict.fromkeys(_COOPERATIVE_STORES, 2),
}
_MIN_WORDS.update({
    _LOAD: 4, _STORE: 3, _COPY_OBJECT: 4, _ATOMIC_STORE: 2, _ATOMIC_FLAG_CLEAR: 2,
    _IMAGE_WRITE: 2, _TEXEL_POINTER: 4, _TENSOR_READ: 4, _TENSOR_WRITE: 2, _TENSOR_QUERY: 4,
    _ARRAY_LENGTH: 4, _COPY_MEMORY: 3, _COPY_MEMORY_SIZED: 3, _PHI: 3, _SELECT: 6, _CALL: 4,
    _PARAM: 3, _FUNCTION: 3, _DECORATE: 3, _DECORATE_ID: 3, _MEMBER_DECORATE: 4,
    _VARIABLE: 4, _NAME: 2, _MEMBER_NAME: 3, _ENTRY_POINT: 4, _EXECUTION_MODE: 3,
    _EXECUTION_MODE_ID: 3, _CAPABILITY: 2, _EXTENSION: 2, _EXT_INST_IMPORT: 2,
    _MEMORY_MODEL: 3, _TYPE_INT: 4, _TYPE_FLOAT: 3, _TYPE_VECTOR: 4, _TYPE_MATRIX: 4,
    _TYPE_ARRAY: 4, _TYPE_RUNTIME_ARRAY: 3, _TYPE_SAMPLED_IMAGE: 3, _TYPE_POINTER: 4,
    _TYPE_IMAGE: 9, _TYPE_TENSOR: 3, _FORWARD_POINTER: 3, _CONSTANT: 4, _SPEC_CONSTANT: 4,
})


def read_module(data: bytes, pointer: str = "") -> tuple[Module | None, list[Diagnostic]]:
    """Parse a SPIR-V binary. Returns ``(None, diagnostics)`` when there is no usable header.

    ``pointer`` is the JSON pointer the diagnostics should carry (the ``shader_code`` key
    when the module came from an attribute file).
    """
    reader = _Reader(pointer)
    module = reader.read(bytes(data))
    return module, reader.diagnostics

