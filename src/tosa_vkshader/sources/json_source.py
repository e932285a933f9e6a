"""JSON files: a bare attribute object, an op object, or a list of either.

An op object is what the reference converter's documentation shows for a custom op::

    {"domain_name": "com.arm.VulkanCustomShader", "operator_name": "k",
     "implementation_attrs": {...} | "{...}",
     "inputs": ["tensor<1x8xf32>"], "outputs": ["tensor<1x8xf32>"]}

``implementation_attrs`` is an object or a JSON string holding one (as in a model).
``inputs``/``outputs`` are optional: MLIR tensor types of the operands and results, so
the context rules can check the op as they would in a model. Diagnostic pointers are
relative to the attribute object; locations point into this file, inside the string when
the attributes are one.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..config import Options
from ..diagnostics import Diagnostic
from ..op_context import OpContext, TensorType, domain_kind, parse_type
from .base import EmbeddedLocator, Op, PrefixLocator, SourceFile, TextFile
from .embedded import embedded_op
from .jsontext import JsonDocument, json_type, parse_json
from .reading_rules import MALFORMED_OP_OBJECT, MISSING_ATTRS

if TYPE_CHECKING:
    from typing import Any

OP_KEY = "implementation_attrs"


def read_json(data: bytes | str, path: str | None, options: Options) -> SourceFile:
    document, problems = parse_json(data, path, max_bytes=options.max_file_size,
                                    max_depth=options.max_depth)
    return read_document(document, problems, path, options)


def read_document(document: JsonDocument | None, problems: list[Diagnostic],
                  path: str | None, options: Options) -> SourceFile:
    """The ops of JSON text as :func:`parse_json` read it: its document (None when the
    text is unusable) and the problems it found in the text."""
    source = SourceFile(path, diagnostics=problems, document=document)
    if document is None:
        return source
    value = document.value
    if isinstance(value, list) and value:
        reader = _Reader(document, source, options)
        for index, item in enumerate(value):
            reader.add(item, f"/{index}")
    elif isinstance(value, dict) and OP_KEY in value:
        _Reader(document, source, options).add(value, "")
    else:
        # A bare attribute object (or something that is not one: the pipeline says so).
        source.ops.append(Op(value, path, "", document))
    return source


class _Reader:
    def __init__(self, document: JsonDocument, source: SourceFile, options: Options) -> None:
        self.document = document
        self.source = source
        self.options = options
        self._host: TextFile | None = None

    @property
    def path(self) -> str | None:
        return self.source.path

    def host(self) -> TextFile:
        if self._host is None:
            self._host = TextFile(self.document.text, self.path)
        return self._host

    def problem(self, diagnostic: Diagnostic, pointer: str, on_key: bool = False) -> None:
        location = self.document.locate(pointer, on_key=on_key)
        self.source.diagnostics.append(diagnostic.located(location))

    def add(self, item: Any, prefix: str) -> None:
        if not isinstance(item, dict) or OP_KEY not in item:
            self.source.ops.append(Op(item, self.path, locator=PrefixLocator(self.document,
                                                                              prefix)))
            return
        context = self.context(item, prefix)
        if context is None:
            return  # another domain: not ours to check
        attrs = item[OP_KEY]
        pointer = f"{prefix}/{OP_KEY}"
        if isinstance(attrs, dict):
            self.source.ops.append(Op(attrs, self.path, name=context.operator_name,
                                      context=context,
                                      locator=PrefixLocator(self.document, pointer)))
        elif isinstance(attrs, str):
            self.add_embedded(attrs, pointer, context)
        else:
            self.problem(MISSING_ATTRS.at(
                "", f"implementation_attrs must be a JSON object or a string holding one, "
                    f"got {json_type(attrs)}"), pointer)

    def add_embedded(self, text: str, pointer: str, context: OpContext) -> None:
        span = self.document.span(pointer)
        assert span is not None  # the op object's own member
        quote = span.value_start
        whole_text = self.document.text
        host = self.host()
        offsets = _Lazy(lambda: _json_string_offsets(whole_text, quote))

        def place_offset(offset: int):
            return host.location(offsets().host(offset))

        op, problems = embedded_op(
            text, self.path, self.options, place_offset=place_offset, context=context,
            locator_for=lambda document: EmbeddedLocator(document, host, offsets, _json_escape))
        self.source.diagnostics.extend(problems)
        if op is not None:
            self.source.ops.append(op)

    def context(self, item: dict[str, Any], prefix: str) -> OpContext | None:
        """The op's context, or None when its domain is not ours (nor a near miss)."""
        context = OpContext()
        for field in ("domain_name", "operator_name"):
            value = item.get(field)
            if value is not None and not isinstance(value, str):
                self.problem(MALFORMED_OP_OBJECT.at(
                    "", f"{field} must be a string, got {json_type(value)}"),
                    f"{prefix}/{field}")
                # Keep the op (with its value as the name): VKS505 says what is wrong.
                value = None if field == "domain_name" else json.dumps(value)
            setattr(context, field, value)
            if field in item:
                context.finders[field] = self._finder(f"{prefix}/{field}")
        context.finders["op"] = self._finder(prefix, on_key=False)
        if context.domain_name is not None and domain_kind(context.domain_name) == "other":
            return None
        if "operator_name" not in item:
            context.finders["operator_name"] = self._finder(prefix)
        context.operands = self.types(item, "inputs", prefix)
        context.results = self.types(item, "outputs", prefix)
        return context

    def _finder(self, pointer: str, on_key: bool = False):
        """Where ``pointer`` is, found when a diagnostic asks (most ops never need it)."""
        document = self.document
        return lambda: document.locate(pointer, on_key=on_key)

    def types(self, item: dict[str, Any], field: str,
              prefix: str) -> tuple[TensorType, ...] | None:
        if field not in item:
            return None
        value = item[field]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(parse_type(v) for v in value)
        self.problem(MALFORMED_OP_OBJECT.at(
            "", f"{field} must be a list of MLIR tensor types such as \"tensor<1x8xf32>\", "
                f"got {json_type(value)}"), f"{prefix}/{field}")
        return None


class _Lazy:
    """Computes a value on first call and keeps it."""

    def __init__(self, make) -> None:
        self._make = make
        self._value = None

    def __call__(self):
        if self._value is None:
            self._value = self._make()
        return self._value


# (the escapes module is loaded only for attributes given as a string, when a finding or
# a fix's edit is placed in it)
def _json_string_offsets(text: str, quote: int):
    """The position map of an op's attributes string."""
    from .escapes import json_string_offsets

    return json_string_offsets(text, quote)


def _json_escape(text: str) -> str:
    from .escapes import json_escape

    return json_escape(text)
