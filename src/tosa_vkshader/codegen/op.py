"""A Vulkan shader custom op: typed attributes plus a name, rendered on demand."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import Options
from ..diagnostics import Diagnostic, Severity
from ..typed_attributes import Attributes
from .codegen_rules import ATTRIBUTES_INVALID
from .errors import CodegenError
from .infer import Embed, generate
from .shader import Language, Shader, read_shader

VULKAN_DOMAIN = "com.arm.VulkanCustomShader"


@dataclass(frozen=True, slots=True)
class CustomOp:
    """A ``tosa.custom`` op in the ``com.arm.VulkanCustomShader`` domain.

    ``attributes`` have passed ``check``; ``notes`` holds the warnings and notes that
    building the op produced (an unused binding left out, a specializable local size).
    """

    attributes: Attributes
    name: str
    notes: tuple[Diagnostic, ...] = ()

    domain_name = VULKAN_DOMAIN

    @classmethod
    def from_attributes(cls, attributes: Attributes | Mapping[str, Any] | str, name: str, *,
                        options: Options | None = None) -> CustomOp:
        """An op from attributes (a model, a flat dict or JSON text), after ``check``.

        Raises :class:`CodegenError` when the attributes have errors.
        """
        from ..check import report_for

        if isinstance(attributes, Attributes):
            flat: Any = attributes.to_attrs()
        elif isinstance(attributes, str):
            flat = attributes
        else:
            flat = dict(attributes)
        report = report_for(flat, options or Options())
        if not report.ok:
            raise CodegenError([*report.diagnostics, ATTRIBUTES_INVALID.at(
                "", f"the attributes of {name!r} have {len(report.errors)} error(s); an op is "
                    "only built from attributes that pass check")])
        model = report.attributes
        assert model is not None
        return cls(model, name, tuple(report.diagnostics))

    @property
    def attrs(self) -> dict[str, Any]:
        """The flat attribute object, keys in canonical order."""
        return self.attributes.to_attrs()

    @property
    def implementation_attrs(self) -> str:
        """The attribute object as the JSON text that goes into ``implementation_attrs``."""
        return json.dumps(self.attrs, ensure_ascii=False)

    def to_op_object(self, operands: Sequence[str] | None = None,
                     results: Sequence[str] | None = None) -> dict[str, Any]:
        """The op-level JSON object (types are included when given)."""
        obj: dict[str, Any] = {"domain_name": self.domain_name, "operator_name": self.name}
        if operands is not None:
            obj["inputs"] = list(operands)
        if results is not None:
            obj["outputs"] = list(results)
        obj["implementation_attrs"] = self.attrs
        return obj

    def to_mlir(self, operands: Sequence[str], results: Sequence[str], *,
                function: str = "main", options: Options | None = None) -> str:
        """A module with one ``func.func`` holding this op, ``tosa-opt`` readable.

        ``operands``/``results`` are MLIR tensor types (``"tensor<1x16x16x4xi8>"``); they
        are checked against the resources first (:class:`CodegenError` on a mismatch).
        """
        from .emit import render_mlir

        return render_mlir(self, operands, results, function=function, options=options)

    def to_tosa_bytes(self, operands: Sequence[str], results: Sequence[str], *,
                      options: Options | None = None) -> bytes:
        """The op as a TOSA flatbuffer (a graph with one region, block and operator)."""
        from .emit import render_tosa

        return render_tosa(self, operands, results, options=options)


def op_from_shader(shader: str | os.PathLike[str] | bytes | None = None, *,
                   path: str | os.PathLike[str] | None = None, source: str | None = None,
                   name: str | None = None,
                   language: Language | None = None, entry_point: str | None = None,
                   embed: Embed | None = None,
                   format_of: Sequence[tuple[str, str]] | Mapping[str, str] = (),
                   workgroup_sizes: Sequence[int] | None = None,
                   operands: Sequence[str] | None = None,
                   results: Sequence[str] | None = None,
                   options: Options | None = None,
                   sampler_of: Sequence[tuple[str, str]] | Mapping[str, str] = ()
                   ) -> CustomOp:
    """Build an op from a compute shader: reflect it and infer its attributes.

    Say what the shader is, never leaving it to a guess: ``path=`` a shader file (the
    language from its suffix unless ``language`` is given), ``source=`` GLSL/HLSL text
    (with ``language``), or a SPIR-V module as ``bytes``. The positional ``shader`` is
    kept for existing callers: ``bytes`` or a ``Path`` as above, a ``str`` is a path, or
    source text when ``language`` is given; a one-line ``str`` with ``language`` that
    names an existing file is refused as ambiguous (:class:`TypeError`). ``format_of``
    maps a binding (number, ``"set:binding"`` or variable name) to a VkFormat where the
    shader does not say; ``sampler_of`` maps a sampled image to
    ``"FILTER[,ADDRESS[,BORDER]]"`` (``"linear,repeat"``), written as its
    ``input_N_sampler``. ``results`` (MLIR tensor types) make ``workgroup_sizes`` the
    number of workgroups that covers them; with ``operands`` as well the op is then
    checked with its types, as ``emit`` does. Raises :class:`CodegenError` with
    diagnostics when the attributes cannot be made or do not pass ``check``.
    """
    if sum(x is not None for x in (shader, path, source)) != 1:
        raise TypeError("op_from_shader: give exactly one of path=, source= or a SPIR-V "
                        "module (bytes)")
    if source is not None:
        if language not in ("GLSL", "HLSL"):
            raise TypeError('op_from_shader: source= needs language="GLSL" or "HLSL"')
        read = Shader(language, source=source)
    elif path is not None:
        read = read_shader(path, language)
    elif isinstance(shader, bytes):
        read = Shader("SPIR-V", spirv=shader)
    elif isinstance(shader, str) and language in ("GLSL", "HLSL"):
        if "\n" not in shader and Path(shader).is_file():
            raise TypeError(f"op_from_shader: {shader!r} names a file but language= asks to "
                            f"read it as {language} source text; pass path= or source=")
        read = Shader(language, source=shader)
    else:
        assert shader is not None
        read = read_shader(shader, language)
    op = _from_source(read, name, entry_point, embed, format_of, workgroup_sizes, results,
                      options, operands, sampler_of)
    if operands is None or results is None:
        return op
    # With the op's types: checked as a model would be (counts, formats, coverage).
    from .emit import check_op

    in_model = check_op(op, operands, results, options)
    notes = [d for d in op.notes if d.code not in {x.code for x in in_model}]
    if any(d.severity is Severity.ERROR for d in in_model):
        raise CodegenError([*notes, *in_model])
    return CustomOp(op.attributes, op.name, (*notes, *in_model))


def _from_source(source: Shader, name, entry_point, embed, format_of, workgroup_sizes,
                 results, options, operands=None, sampler_of=()) -> CustomOp:
    from .emit import parse_types

    parsed_results = parsed_operands = None
    if results is not None:
        parsed_results, bad = parse_types(results, "result")
        if bad:
            raise CodegenError(bad)
    if operands is not None:
        parsed_operands, bad = parse_types(operands, "operand")
        if bad:
            parsed_operands = None  # reported by the check with the op's types
    generated = generate(source, entry_point=entry_point, embed=embed, format_of=format_of,
                         workgroup_sizes=workgroup_sizes, results=parsed_results,
                         operands=parsed_operands, options=options, sampler_of=sampler_of)
    if generated.attributes is None:
        raise CodegenError(generated.diagnostics)
    if name is None:
        name = Path(source.path).stem if source.path else generated.attributes.entry_point
    return CustomOp(generated.attributes, name, tuple(generated.diagnostics))
