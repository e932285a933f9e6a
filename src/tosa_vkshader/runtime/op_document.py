"""An op JSON document made into the TOSA MLIR module `run` runs, exactly as `emit mlir`
builds it: the op object's ``implementation_attrs`` (an object, or JSON text), its
operand and result types (``inputs``/``outputs``, or given apart) and its name."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..config import Options


class NotAnOpDocument(ValueError):
    """The document cannot be made into a module; the message says why, for the user."""


def module_from_op(text: str, *, operands: str | None = None, results: str | None = None,
                   name: str | None = None, default_name: str = "op",
                   options: Options) -> str:
    """The module of the op in JSON ``text``; ``operands``/``results`` are comma-separated
    tensor types that replace the document's own. :class:`NotAnOpDocument`, or
    ``CodegenError`` with the attributes' diagnostics."""
    from ..codegen import CustomOp
    from ..codegen.emit import split_types

    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotAnOpDocument(f"not JSON: {exc}") from None
    if not isinstance(document, dict):
        raise NotAnOpDocument("does not hold a JSON object")
    attrs = document.get("implementation_attrs", document)
    if isinstance(attrs, str):
        try:
            attrs = json.loads(attrs)
        except json.JSONDecodeError as exc:
            raise NotAnOpDocument(f"implementation_attrs is not JSON: {exc}") from None
    given = [split_types(operands) if operands is not None else document.get("inputs"),
             split_types(results) if results is not None else document.get("outputs")]
    if given[0] is None or given[1] is None:
        raise NotAnOpDocument("an op needs its operand and result types to run (--operands "
                              "and --results, or the op object's \"inputs\" and \"outputs\")")
    dispatch = options.with_overrides(workgroup_semantics="dispatch")
    op = CustomOp.from_attributes(attrs, name or document.get("operator_name") or default_name,
                                  options=dispatch)
    return op.to_mlir(given[0], given[1], options=dispatch)
