"""JSON files holding one bare attribute object."""

from __future__ import annotations

from ..config import Options
from .base import Op, SourceFile
from .jsontext import parse_json


def read_json(data: bytes | str, path: str | None, options: Options) -> SourceFile:
    document, problems = parse_json(data, path, max_bytes=options.max_file_size,
                                    max_depth=options.max_depth)
    source = SourceFile(path, diagnostics=problems, document=document)
    if document is not None:
        source.ops.append(Op(document.value, path, "", document))
    return source
