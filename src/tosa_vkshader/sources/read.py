"""Reading a file's text (or bytes) into its ops, by the file's suffix, or taking an
already parsed attribute object: where every check begins."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..config import Options

if TYPE_CHECKING:
    from io import FileIO
    from typing import Any

    from .base import SourceFile


def read_text(data: bytes | str | FileIO, path: str | None, options: Options) -> SourceFile:
    """Read by the file's suffix: .mlir (TOSA MLIR text), .tosa (flatbuffer), else JSON."""
    suffix = os.path.splitext(path)[1].lower() if path and "." in path else ""
    if suffix == ".mlir":
        from .mlir_source import read_mlir

        return read_mlir(data, path, options)
    if suffix == ".tosa":
        from .tosa_source import read_tosa

        raw = data.encode("utf-8") if isinstance(data, str) else data
        assert isinstance(raw, bytes)  # (only models are read from their open file)
        return read_tosa(raw, path, options)
    from .json_source import read_json

    assert isinstance(data, (bytes, str))
    return read_json(data, path, options)


def source_of(obj_or_text: Any, options: Options, path: str | None = None) -> SourceFile:
    """What :func:`validate` checks: JSON text or bytes read into a source with positions,
    or an already parsed object (rendered to JSON text only when a diagnostic needs a
    location). Callers that check many at once pass several to ``check_sources``."""
    if isinstance(obj_or_text, (str, bytes, bytearray)):
        data = bytes(obj_or_text) if isinstance(obj_or_text, bytearray) else obj_or_text
        return read_text(data, path, options)
    from .base import Op, SourceFile
    from .jsontext import pretty_document

    source = SourceFile(path)
    source.ops.append(Op(obj_or_text, path,
                         render=lambda: pretty_document(obj_or_text, path)))
    return source
