"""TOSA flatbuffers (``.tosa``): every CUSTOM operator in every region and block.

Read with the ``tosa`` package of tosa-tools (the classes flatc generates from the real
``tosa.fbs``), imported only when a .tosa file is checked. A .tosa file has no lines:
every diagnostic of an op is located at the operator (region, block and operator index,
and the operator name).

The flatbuffer reader trusts the buffer; a damaged file could make it index past the end
or loop over an absurd length. Lengths are checked against the buffer size before any
loop, and the reader's own errors on a damaged buffer become VKS501.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from ..config import Options
from ..diagnostics import Location
from ..op_context import OpContext, TensorType, domain_kind, render_tensor
from .base import FixedLocator, SourceFile
from .embedded import embedded_op
from .reading_rules import MISSING_ATTRS, READER_MISSING, TOSA_FILE

# tosa.DType value -> element type in MLIR's spelling (so messages match the MLIR source).
_ELEMENTS = {
    1: "i1", 2: "i4", 3: "i8", 4: "i16", 5: "i32", 6: "i48", 7: "f32", 8: "f16", 9: "bf16",
    11: "f8E4M3FN", 12: "f8E5M2", 13: "f6E2M3FN", 14: "f6E3M2FN", 15: "f4E2M1FN",
    16: "f8E8M0FNU", 17: "i64",
}
_SHAPE_TYPE = 10


class _Damaged(ValueError):
    pass


def read_tosa(data: bytes, path: str | None, options: Options) -> SourceFile:
    source = SourceFile(path)
    where = Location(path, 0, 0)
    try:
        from tosa.Attribute import Attribute
        from tosa.CustomAttribute import CustomAttribute
        from tosa.Op import Op as TosaOp
        from tosa.TosaGraph import TosaGraph
    except ImportError:
        source.diagnostics.append(READER_MISSING.at(
            "", "cannot read a .tosa file: the `tosa` package from tosa-tools is not "
                "installed",
            hint="pip install tosa-tools into the environment tosa-vkshader runs in (in "
                 "pre-commit: additional_dependencies: [tosa-tools])").located(where))
        return source
    if len(data) < 8 or data[4:8] != b"TOSA":
        found = data[4:8] if len(data) >= 8 else b""
        source.diagnostics.append(TOSA_FILE.at(
            "", f"not a TOSA flatbuffer: the file identifier is {found!r}, expected b'TOSA'",
            hint="check the file is a .tosa written by tosa-opt --tosa-serialize or "
                 "tosa_serializer").located(where))
        return source
    reader = _Reader(data, (Attribute.CustomAttribute, CustomAttribute, TosaOp.CUSTOM))
    # Only the flatbuffer walk is guarded: checking the ops happens after it, outside.
    try:
        reader.graph(TosaGraph.GetRootAs(data, 0))
    except (_Damaged, *_DAMAGED) as exc:
        source.diagnostics.append(TOSA_FILE.at(
            "", f"the TOSA flatbuffer is damaged: {exc}",
            hint="regenerate the file; it may have been cut short").located(where))
        return source
    for custom in reader.found:
        _add_op(source, custom, path, options)
    return source


@dataclass(slots=True)
class _Custom:
    """What the flatbuffer says about one CUSTOM operator."""

    where: str
    operator_name: str | None
    domain_name: str | None
    operands: tuple[TensorType, ...]
    results: tuple[TensorType, ...]
    attrs: bytes | None  # None: the field is absent
    operand_values: tuple[str, ...] = ()  # the input tensors' names
    results_used: tuple[bool, ...] = ()  # whether an operator or the block consumes each


def _add_op(source: SourceFile, custom: _Custom, path: str | None, options: Options) -> None:
    label = f'{custom.where} "{custom.operator_name}"' if custom.operator_name else \
        custom.where
    location = Location(path, 0, 0, logical=label)
    context = OpContext(custom.operator_name, custom.domain_name, custom.operands,
                        custom.results, places={"op": location},
                        operand_values=custom.operand_values,
                        results_used=custom.results_used)
    if custom.attrs is None:
        source.diagnostics.append(MISSING_ATTRS.at(
            "", "the custom op has no implementation_attrs").located(location))
        return
    op, problems = embedded_op(
        custom.attrs, path, options, context=context,
        place_offset=lambda _offset: location,
        locator_for=lambda _document: FixedLocator(location))
    source.diagnostics.extend(problems)
    if op is not None:
        source.ops.append(op)


# TypeError: the flatbuffers runtime's own check of an offset read from a damaged buffer.
_DAMAGED = (struct.error, IndexError, ValueError, OverflowError, TypeError)


class _Reader:
    def __init__(self, data: bytes, classes: tuple[Any, Any, int]) -> None:
        self.data = data
        self.custom_attribute_type, self.custom_attribute_class, self.custom_op = classes
        self.found: list[_Custom] = []

    def length(self, value: int, what: str) -> int:
        # Each vector element takes at least one byte; more than the file holds is damage.
        if value < 0 or value > len(self.data):
            raise _Damaged(f"{what} claims {value} entries in a {len(self.data)}-byte file")
        return value

    def graph(self, graph: Any) -> None:
        for r in range(self.length(graph.RegionsLength(), "the region list")):
            region = graph.Regions(r)
            region_name = _name(region.Name())
            for b in range(self.length(region.BlocksLength(), "a block list")):
                block = region.Blocks(b)
                self.block(block, f'region {r} "{region_name}", block {b} '
                                  f'"{_name(block.Name())}"')

    def block(self, block: Any, where: str) -> None:
        customs = []
        for o in range(self.length(block.OperatorsLength(), "an operator list")):
            operator = block.Operators(o)
            if operator.Op() == self.custom_op:
                customs.append((o, operator))
        if not customs:
            return
        # Types only of the tensors custom ops use: a model has thousands of tensors.
        needed: set[str] = set()
        for _, operator in customs:
            needed.update(_name(operator.Inputs(i)) for i in
                          range(self.length(operator.InputsLength(), "an input list")))
            needed.update(_name(operator.Outputs(i)) for i in
                          range(self.length(operator.OutputsLength(), "an output list")))
        tensors = self.tensors(block, needed)
        consumed = self.consumed(block)
        for o, operator in customs:
            self.custom(operator, tensors, consumed, f"{where}, operator {o}")

    def consumed(self, block: Any) -> set[str]:
        """Tensors some operator reads or the block returns."""
        names = {_name(block.Outputs(i))
                 for i in range(self.length(block.OutputsLength(), "a block output list"))}
        for o in range(self.length(block.OperatorsLength(), "an operator list")):
            operator = block.Operators(o)
            names.update(_name(operator.Inputs(i)) for i in
                         range(self.length(operator.InputsLength(), "an input list")))
        return names

    def tensors(self, block: Any, needed: set[str]) -> dict[str, TensorType]:
        found: dict[str, TensorType] = {}
        for t in range(self.length(block.TensorsLength(), "a tensor list")):
            tensor = block.Tensors(t)
            name = _name(tensor.Name())
            if name in needed and name not in found:
                found[name] = self.tensor_type(tensor)
                if len(found) == len(needed):
                    return found
        for s in range(self.length(block.ShapesLength(), "a shape list")):
            shape = block.Shapes(s)
            name = _name(shape.Name())
            if name in needed and name not in found:
                found[name] = TensorType(f"!tosa.shape<{shape.Rank()}>", is_tensor=False)
        return found

    def tensor_type(self, tensor: Any) -> TensorType:
        dtype = tensor.Type()
        element = _ELEMENTS.get(dtype)
        if dtype == _SHAPE_TYPE:
            return TensorType(f"!tosa.shape<{tensor.ShapeLength()}>", is_tensor=False)
        if element is None:
            return TensorType(f"a tensor of TOSA DType {dtype}", None, None)
        if tensor.IsUnranked():
            return TensorType.tensor(element, None)
        self.length(tensor.ShapeLength(), "a tensor shape")
        shape = tuple(_dim(int(d)) for d in tensor.ShapeAsNumpy()) \
            if tensor.ShapeLength() else ()
        return TensorType(render_tensor(element, shape), element, shape)

    def custom(self, operator: Any, tensors: dict[str, TensorType], consumed: set[str],
               where: str) -> None:
        if operator.AttributeType() != self.custom_attribute_type:
            raise _Damaged(f"{where}: a CUSTOM operator without a CustomAttribute")
        table = operator.Attribute()
        if table is None:
            raise _Damaged(f"{where}: a CUSTOM operator without its attribute table")
        attribute = self.custom_attribute_class()
        attribute.Init(table.Bytes, table.Pos)
        domain = _optional_name(attribute.DomainName())
        if domain_kind(domain) == "other":
            return
        operands = tuple(self.operand(operator.Inputs(i), tensors) for i in
                         range(self.length(operator.InputsLength(), "an input list")))
        results = tuple(self.operand(operator.Outputs(i), tensors) for i in
                        range(self.length(operator.OutputsLength(), "an output list")))
        attrs = None
        if not attribute.ImplementationAttrsIsNone():
            length = self.length(attribute.ImplementationAttrsLength(), "implementation_attrs")
            attrs = attribute.ImplementationAttrsAsNumpy().tobytes() if length else b""
        inputs = tuple(_name(operator.Inputs(i)) for i in range(len(operands)))
        outputs = tuple(_name(operator.Outputs(i)) for i in range(len(results)))
        self.found.append(_Custom(where, _optional_name(attribute.OperatorName()), domain,
                                  operands, results, attrs, inputs,
                                  tuple(name in consumed for name in outputs)))

    def operand(self, name: bytes | None, tensors: dict[str, TensorType]) -> TensorType:
        key = _name(name)
        found = tensors.get(key)
        if found is None:
            raise _Damaged(f"operator refers to tensor {key!r}, which its block does not have")
        return found


def _dim(value: int) -> int | None:
    return None if value < 0 else value


def _name(raw: bytes | None) -> str:
    return raw.decode("utf-8", "replace") if raw is not None else ""


def _optional_name(raw: bytes | None) -> str | None:
    return raw.decode("utf-8", "replace") if raw is not None else None
