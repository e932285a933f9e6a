"""Which documents the server checks, and the snapshot of one that a check works on.

Op documents are attribute JSON and TOSA MLIR (``.json``, ``.mlir``): checked as `check`
checks the file, with the editor's text. Shaders (``.comp``, ``.glsl``, ``.hlsl``) are
checked through the ops that carry them (``shaders.py``). Anything else gets nothing.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass

SHADER_LANGUAGES = {".comp": "GLSL", ".glsl": "GLSL", ".hlsl": "HLSL"}
OP_SUFFIXES = (".json", ".mlir")
# A document without a file (an editor's unsaved "untitled" buffer) is known by its
# language: the suffix it stands for.
LANGUAGE_SUFFIXES = {"json": ".json", "jsonc": ".json", "mlir": ".mlir", "glsl": ".comp",
                     "hlsl": ".hlsl"}


class Kind(enum.Enum):
    OPS = "ops"  # attribute JSON or an MLIR model
    SHADER = "shader"  # GLSL or HLSL source of some op's shader_code


def kind_of(path: str) -> Kind | None:
    suffix = os.path.splitext(path)[1].lower()
    if suffix in OP_SUFFIXES:
        return Kind.OPS
    if suffix in SHADER_LANGUAGES:
        return Kind.SHADER
    return None


def path_for(fs_path: str | None, language_id: str | None, folder: str) -> str | None:
    """The path a document is checked as: its file, or for a document without one a name
    in ``folder`` with its language's suffix (None: not a language of ours)."""
    if fs_path is not None:
        return fs_path
    suffix = LANGUAGE_SUFFIXES.get(language_id or "")
    return os.path.join(folder, "untitled" + suffix) if suffix else None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One version of a document as the editor has it."""

    uri: str
    path: str  # the file (or the name an unsaved document is checked as)
    version: int | None
    text: str
    kind: Kind
    encoding: str  # the position encoding agreed with the client
