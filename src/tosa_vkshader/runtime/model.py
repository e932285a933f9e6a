"""What `run` needs to know about a TOSA MLIR model beyond what ``check`` reads.

- the entry function's signature (argument and result tensor types), to match the inputs
  and to name the results;
- each custom op's attributes, in the order they appear (the converter makes one compute
  segment per op, in that order), to find push-constant blocks;
- HLSL ops rewritten with the SPIR-V we compile for them, since the reference runtime
  cannot compile HLSL.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..op_context import TensorType, parse_type, storage_element
from ..sources.escapes import EscapeError, decode_mlir
from .errors import RunError
from .rules import BAD_RUN_MODEL, UNSUPPORTED_INTERFACE

# MLIR element type -> numpy dtype name (signless integers are read as signed).
NUMPY_DTYPES = {
    "f16": "float16", "f32": "float32", "f64": "float64", "i1": "bool",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "si8": "int8", "si16": "int16", "si32": "int32", "si64": "int64",
    "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
}

_FUNC = re.compile(r'(?<![\w.])func\.func\s+(?:(public|private|nested)\s+)?@("(?:[^"\\]|\\.)*"|'
                   r"[\w$.-]+)\s*\(")
_ATTRS_STRING = re.compile(r'\bimplementation_attrs\s*=\s*"')


@dataclass(frozen=True, slots=True)
class Argument:
    name: str
    type: TensorType

    @property
    def dtype(self) -> str | None:
        """numpy's name for the stored element (a quantized type stores its integer)."""
        return NUMPY_DTYPES.get(storage_element(self.type.element) or "")

    @property
    def shape(self) -> tuple[int, ...] | None:
        return self.type.static_shape


@dataclass(frozen=True, slots=True)
class Signature:
    name: str
    arguments: tuple[Argument, ...]
    results: tuple[Argument, ...]  # named result_0, result_1, ...


@dataclass(slots=True)
class CustomOpText:
    """One ``implementation_attrs`` string of the module: its span and decoded value."""

    start: int  # first character inside the quotes
    end: int  # the closing quote
    attrs: dict


def read_signature(text: str) -> Signature:
    """The entry function: ``@main``, else the first public ``func.func``."""
    functions = [m for m in _FUNC.finditer(text) if m.group(1) != "private"]
    match = next((m for m in functions if m.group(2) == "main"),
                 functions[0] if functions else None)
    if match is None:
        raise RunError([BAD_RUN_MODEL.at("", "the model has no `func.func` entry function")])
    close = _matching(text, match.end() - 1)
    if close is None:
        raise RunError([BAD_RUN_MODEL.at(
            "", f"cannot read the arguments of `func.func @{match.group(2)}`")])
    arguments = []
    for index, part in enumerate(_split(text[match.end():close])):
        name, _, type_text = part.partition(":")
        arguments.append(Argument(name.strip() or f"argument {index}",
                                  parse_type(_drop_attributes(type_text))))
    rest = text[close + 1:]
    body = rest.find("{")
    head = rest[:body if body >= 0 else len(rest)]
    head = head.split(" attributes ", 1)[0].strip()
    results: list[Argument] = []
    if head.startswith("->"):
        result_text = head[2:].strip()
        if result_text.startswith("("):
            end = _matching(result_text, 0)
            result_text = result_text[1:end if end is not None else len(result_text)]
        for index, part in enumerate(_split(result_text)):
            results.append(Argument(f"result_{index}", parse_type(_drop_attributes(part))))
    signature = Signature(match.group(2), tuple(arguments), tuple(results))
    _require_runnable(signature)
    return signature


def _require_runnable(signature: Signature) -> None:
    problems = []
    for what, values in (("argument", signature.arguments), ("result", signature.results)):
        for index, value in enumerate(values):
            t = value.type
            if not t.is_tensor or t.element is None:
                problems.append(f"{what} {index} ({value.name}) has type `{t.text}`, not a "
                                "tensor")
            elif value.dtype is None:
                problems.append(f"{what} {index} ({value.name}) has element type "
                                f"`{t.element}`, which has no numpy dtype")
            elif value.shape is None:
                problems.append(f"{what} {index} ({value.name}) `{t.text}` has no static "
                                "shape")
    if not signature.results:
        problems.append("the entry function returns nothing, so there is no result to read")
    if problems:
        raise RunError([UNSUPPORTED_INTERFACE.at(
            "", f"`run` cannot run @{signature.name}: {'; '.join(problems)}",
            hint="give every argument and result a static shape and an element type among "
                 f"{', '.join(sorted(set(NUMPY_DTYPES)))}")])


def custom_op_texts(text: str) -> list[CustomOpText]:
    """Every custom op's attribute string whose value is a JSON object, in text order."""
    found = []
    for match in _ATTRS_STRING.finditer(text):
        end = _string_end(text, match.end())
        if end is None:
            continue
        try:
            value = json.loads(decode_mlir(text, match.end(), end))
        except (EscapeError, ValueError):
            continue
        if isinstance(value, dict):
            found.append(CustomOpText(match.end(), end, value))
    return found


def replace_attrs(text: str, ops: list[tuple[CustomOpText, str]]) -> str:
    """``text`` with the attribute strings of ``ops`` replaced by MLIR string contents."""
    for op, contents in sorted(ops, key=lambda pair: pair[0].start, reverse=True):
        text = text[:op.start] + contents + text[op.end:]
    return text


def _string_end(text: str, start: int) -> int | None:
    index = start
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == '"':
            return index
        if char == "\n":
            return None
        index += 1
    return None


def _matching(text: str, open_index: int) -> int | None:
    depth = 0
    index = open_index
    while index < len(text):
        char = text[index]
        if char == '"':
            end = _string_end(text, index + 1)
            if end is None:
                return None
            index = end
        elif char in "(<[{":
            depth += 1
        elif char in ")>]}":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return None


def _split(text: str) -> list[str]:
    parts, depth, start, index = [], 0, 0, 0
    while index < len(text):
        char = text[index]
        if char == '"':
            end = _string_end(text, index + 1)
            index = end if end is not None else len(text)
        elif char in "(<[{":
            depth += 1
        elif char in ")>]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
        index += 1
    tail = text[start:]
    if tail.strip() or parts:
        parts.append(tail)
    return [p.strip() for p in parts]


def _drop_attributes(type_text: str) -> str:
    """``tensor<4xf32> {tf.name = "x"} loc(...)`` -> ``tensor<4xf32>``."""
    text = type_text.strip()
    depth = 0
    for index, char in enumerate(text):
        if char in "(<[":
            depth += 1
        elif char in ")>]":
            depth -= 1
        elif depth == 0 and (char == "{" or text.startswith("loc(", index)):
            return text[:index].strip()
    return text
