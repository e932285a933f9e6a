"""Attributes -> a ``tosa.custom`` op, as MLIR text or as a TOSA flatbuffer.

Before anything is rendered the op (attributes, name, operand and result types) goes
through the checking pipeline as an op-level object, so the model-context rules compare
the types with the resources (counts, element type against vkformat, ranks and shapes
against the shader) exactly as ``check`` does for a model file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from ..config import Options
from ..diagnostics import Diagnostic, Severity
from ..op_context import TensorType, parse_type
from ..sources.escapes import mlir_string
from .codegen_rules import BAD_TENSOR_TYPE, NOT_SERIALIZABLE, TOSA_TOOLS_MISSING
from .errors import CodegenError


class CustomOp(Protocol):
    """What rendering needs of an op (``codegen.op.CustomOp`` has it); a protocol so that
    this module does not import the op builder, which imports it."""

    @property
    def name(self) -> str: ...

    @property
    def domain_name(self) -> str: ...

    @property
    def implementation_attrs(self) -> str: ...

    def to_op_object(self, operands: Sequence[str], results: Sequence[str]) -> dict[str, Any]:
        ...

# MLIR element type -> tosa_serializer DType name (the inverse of the .tosa reader's table).
TOSA_DTYPES = {
    "i1": "BOOL", "i4": "INT4", "i8": "INT8", "i16": "INT16", "i32": "INT32", "i48": "INT48",
    "i64": "INT64", "f16": "FP16", "bf16": "BF16", "f32": "FP32", "f8E4M3FN": "FP8E4M3",
    "f8E5M2": "FP8E5M2", "f6E2M3FN": "FP6E2M3", "f6E3M2FN": "FP6E3M2", "f4E2M1FN": "FP4E2M1",
    "f8E8M0FNU": "FP8UE8M0",
}


def split_types(text: str) -> list[str]:
    """``"tensor<1x8xf32>, tensor<4xi8>"`` -> the two types (commas inside <> kept)."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in "<([{":
            depth += 1
        elif char in ">)]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index].strip())
            start = index + 1
    tail = text[start:].strip()
    if tail or parts:
        parts.append(tail)
    return parts


def parse_types(types: Sequence[str], what: str) -> tuple[list[TensorType], list[Diagnostic]]:
    parsed, problems = [], []
    for index, text in enumerate(types):
        t = parse_type(text)
        if not t.is_tensor or t.element is None or not _known_element(t.element):
            problems.append(BAD_TENSOR_TYPE.at(
                "", f"{what} {index} `{text}` is not an MLIR tensor type such as "
                    "tensor<1x16x16x4xi8> (element i1..i64, ui8.., f16, bf16, f32, ...)"))
        parsed.append(t)
    return parsed, problems


def _known_element(element: str) -> bool:
    if element in TOSA_DTYPES or element.startswith("!quant."):
        return True
    for prefix in ("ui", "si", "i"):
        if element.startswith(prefix) and element[len(prefix):].isdigit():
            return True
    return element in ("f64",)


def check_op(op: CustomOp, operands: Sequence[str], results: Sequence[str],
             options: Options | None = None) -> list[Diagnostic]:
    """Every diagnostic about ``op`` with these operand/result types (pipeline included)."""
    from ..check import report_for

    _in, bad_in = parse_types(operands, "operand")
    _out, bad_out = parse_types(results, "result")
    if bad_in or bad_out:
        return bad_in + bad_out
    text = json.dumps(op.to_op_object(operands, results), ensure_ascii=False)
    # Positions in that synthesized text would mean nothing to the user: drop them.
    return [d.located(None) for d in report_for(text, options or Options()).diagnostics]


def _checked(op: CustomOp, operands: Sequence[str], results: Sequence[str],
             options: Options | None) -> None:
    diagnostics = check_op(op, operands, results, options)
    if any(d.severity is Severity.ERROR for d in diagnostics):
        raise CodegenError(diagnostics)


def _mlir_symbol(name: str) -> str:
    if name and (name[0].isalpha() or name[0] == "_") and all(
            c.isalnum() or c in "_$." for c in name):
        return "@" + name
    return "@" + mlir_string(name)


def render_mlir(op: CustomOp, operands: Sequence[str], results: Sequence[str], *,
                function: str = "main", options: Options | None = None) -> str:
    """A module with ``func.func @function`` holding the op and returning its results."""
    _checked(op, operands, results, options)
    ins = [" ".join(t.split()) for t in operands]
    outs = [" ".join(t.split()) for t in results]
    args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(ins))
    signature = outs[0] if len(outs) == 1 else f"({', '.join(outs)})"
    attrs = (f"{{domain_name = {mlir_string(op.domain_name)}, implementation_attrs = "
             f"{mlir_string(op.implementation_attrs)}, operator_name = "
             f"{mlir_string(op.name)}}}")
    operand_list = ", ".join(f"%arg{i}" for i in range(len(ins)))
    call = f"tosa.custom {operand_list} {attrs}" if ins else f"tosa.custom {attrs}"
    types = f"({', '.join(ins)}) -> {signature}"
    if not outs:
        body = [f"    {call} : {types}", "    return"]
    elif len(outs) == 1:
        body = [f"    %0 = {call} : {types}", f"    return %0 : {outs[0]}"]
    else:
        values = ", ".join(f"%0#{i}" for i in range(len(outs)))
        body = [f"    %0:{len(outs)} = {call} : {types}",
                f"    return {values} : {', '.join(outs)}"]
    return "\n".join([
        "module {",
        f"  func.func {_mlir_symbol(function)}({args}) -> {signature} {{",
        *body,
        "  }",
        "}",
        "",
    ])


def render_tosa(op: CustomOp, operands: Sequence[str], results: Sequence[str], *,
                options: Options | None = None) -> bytes:
    """The op as a TOSA flatbuffer: one region and block ``main`` whose inputs are the
    operands and whose outputs are the op's results."""
    _checked(op, operands, results, options)
    ins, _ = parse_types(operands, "operand")
    outs, _ = parse_types(results, "result")
    problems = [NOT_SERIALIZABLE.at("", f"{what} {i} `{t.text}`: {why}")
                for what, types in (("operand", ins), ("result", outs))
                for i, t in enumerate(types) for why in [_unserializable(t)] if why]
    if problems:
        raise CodegenError(problems)
    try:
        import tosa_serializer as ts
    except ImportError as exc:
        raise CodegenError([TOSA_TOOLS_MISSING.at(
            "", f"cannot write a .tosa file: {exc}",
            hint="pip install tosa-tools (into the environment tosa-vkshader runs in)")]) from exc
    serializer = ts.TosaSerializer()
    names = [serializer.addPlaceholder(list(t.static_shape or ()),
                                       getattr(ts.DType, TOSA_DTYPES[t.element or ""])).name
             for t in ins]
    outputs = [serializer.addOutput(list(t.static_shape or ()),
                                    getattr(ts.DType, TOSA_DTYPES[t.element or ""])).name
               for t in outs]
    attribute = ts.TosaSerializerAttribute()
    attribute.CustomAttribute(op.name, op.domain_name,
                              list(op.implementation_attrs.encode("utf-8")))
    serializer.addOperator(ts.Op.CUSTOM, names, outputs, attribute)
    return bytes(serializer.serialize())


MAX_TOSA_DIM = 2**31 - 1


def _unserializable(t: TensorType) -> str | None:
    if t.element not in TOSA_DTYPES:
        return f"TOSA has no DType for element type {t.element}"
    if t.static_shape is None:
        return "TOSA tensors need a static shape"
    too_large = [d for d in t.static_shape if d > MAX_TOSA_DIM]
    if too_large:
        return f"dimension {too_large[0]} does not fit the int32 that .tosa shapes hold"
    return None
