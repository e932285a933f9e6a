"""The model stage of a run: what `run` needs to know about a TOSA MLIR model beyond what
``check`` reads, taken from the project's one MLIR reader (``sources/mlir_source.py``).

- the entry function's signature (argument and result tensor types), to match the inputs
  and to name the results, and the values it returns, to know which op wrote a result;
- each custom op's attributes, in the order they appear (the converter makes one compute
  segment per op, in that order), to find push-constant blocks, samplers and the op a
  run-time finding is about;
- HLSL ops rewritten with the SPIR-V we compile for them, since the reference runtime
  cannot compile HLSL.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..op_context import TensorType, storage_element
from ..sources.escapes import EscapeError, decode_mlir
from ..sources.mlir_source import CustomOpSite, custom_op_sites, read_functions
from .errors import RunError
from .rules import BAD_RUN_MODEL, UNSUPPORTED_INTERFACE

if TYPE_CHECKING:
    from collections.abc import Sequence

# MLIR element type -> numpy dtype name (signless integers are read as signed).
NUMPY_DTYPES = {
    "f16": "float16", "f32": "float32", "f64": "float64", "i1": "bool",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "si8": "int8", "si16": "int16", "si32": "int32", "si64": "int64",
    "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
}


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
    returned: tuple[str, ...]  # the SSA value of each result, as `return` lists them


@dataclass(frozen=True, slots=True)
class ModelOp:
    """One VulkanCustomShader op: where it is written and its attributes (None when its
    implementation_attrs is not a JSON object: the check reports that)."""

    index: int
    site: CustomOpSite
    attrs: dict[str, Any] | None

    @property
    def name(self) -> str:
        return f"custom op {self.index}"


@dataclass(frozen=True, slots=True)
class RunModel:
    """A model as `run` reads it: ``text``, the file it came from (None for text given
    directly), the entry function and the custom ops."""

    text: str
    path: str | None
    signature: Signature
    ops: tuple[ModelOp, ...]

    @classmethod
    def read(cls, text: str, path: str | None = None) -> RunModel:
        """:class:`RunError` (VKS961, VKS959) when there is no entry function `run` can
        feed and read back."""
        return cls(text, path, read_signature(text), read_ops(text))

    def producer(self, result: int) -> tuple[ModelOp, int] | None:
        """The custom op that writes the entry function's result ``result``, and which of
        its results it is; None when another op (or an argument) is returned there."""
        returned = self.signature.returned
        if result >= len(returned):
            return None
        for op in self.ops:
            if returned[result] in op.site.result_names:
                return op, op.site.result_names.index(returned[result])
            if len(op.site.result_names) == 1 and returned[result] == \
                    f"{op.site.result_names[0]}#0":
                return op, 0
        return None

    def with_attributes(self, replaced: Sequence[tuple[ModelOp, str]]) -> str:
        """The model's text with the attribute strings of some ops replaced by new MLIR
        string contents."""
        data = self.text.encode("utf-8")  # (the sites' offsets count UTF-8 bytes)
        spans = [(op.site.attributes, contents) for op, contents in replaced
                 if op.site.attributes is not None]
        for (start, end), contents in sorted(spans, reverse=True):
            data = data[:start] + contents.encode("utf-8") + data[end:]
        return data.decode("utf-8")


def read_signature(text: str) -> Signature:
    """The entry function: ``@main``, else the first public ``func.func``; every argument
    and result a tensor `run` can feed or read back (:class:`RunError` otherwise)."""
    signature = read_entry(text)
    _require_runnable(signature)
    return signature


def read_entry(text: str) -> Signature:
    """The entry function as written (dynamic dimensions included): ``@main``, else the
    first public ``func.func``."""
    functions = [f for f in read_functions(text) if f.visibility != "private"]
    entry = next((f for f in functions if f.name == "main"),
                 functions[0] if functions else None)
    if entry is None:
        raise RunError([BAD_RUN_MODEL.at("", "the model has no `func.func` entry function")])
    return Signature(
        entry.name,
        tuple(Argument(name, t) for name, t in entry.arguments),
        tuple(Argument(f"result_{index}", t) for index, t in enumerate(entry.results)),
        entry.returned or ())


def read_ops(text: str) -> tuple[ModelOp, ...]:
    ops = []
    data = text.encode("utf-8")  # (the sites' offsets count UTF-8 bytes)
    for index, site in enumerate(custom_op_sites(data)):
        attrs = None
        if site.attributes is not None:
            try:
                start, end = site.attributes
                value = json.loads(decode_mlir(data[start:end], start))
            except (EscapeError, ValueError):
                value = None
            attrs = value if isinstance(value, dict) else None
        ops.append(ModelOp(index, site, attrs))
    return tuple(ops)


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
