"""The failures `verify` found, kept to be run first next time, as hypothesis keeps its own.

Each counterexample (the shrunk inputs: each array's ``.npy`` bytes after its length) is
saved in hypothesis' ``DirectoryBasedExampleDatabase`` under a key naming the model (its
path as given, or the hash of its text) and its entry function, by default in
``.tosa-vkshader/verify-db`` of the current directory. A later `verify` of the same model
runs the saved inputs before any new example; one that passes now (the bug is fixed) is
removed, one that still fails is reported (and shrunk again, if it can be). Inputs that
no longer fit the model's arguments are removed too.
"""

from __future__ import annotations

import hashlib
import io
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .evaluate import Example

def model_key(name: str | None, text: str, entry: str) -> bytes:
    """The key of a model's failures: how it was named (its path, or the command line's
    words for it; else its text's hash), and its entry function."""
    identity = name if name is not None else \
        "text:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    return f"tosa-vkshader verify 1\0{identity}\0@{entry}".encode()


class FailureDatabase:
    """Saved counterexamples, by model key."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        from hypothesis.database import DirectoryBasedExampleDatabase

        self.folder = folder
        self._store = DirectoryBasedExampleDatabase(os.fspath(folder))

    def fetch(self, key: bytes) -> list[tuple[bytes, Example]]:
        """Every saved example of ``key``, with the bytes it is saved as (unreadable ones
        are removed)."""
        found = []
        for value in list(self._store.fetch(key)):
            example = _decode(value)
            if example is None:
                self._store.delete(key, value)
            else:
                found.append((value, example))
        return found

    def save(self, key: bytes, example: Example) -> None:
        self._store.save(key, encode(example))

    def delete(self, key: bytes, value: bytes) -> None:
        self._store.delete(key, value)


def encode(example: Example) -> bytes:
    """The same bytes for the same arrays (the database names its files by them)."""
    import numpy as np

    parts = []
    for array in example:
        buffer = io.BytesIO()
        np.save(buffer, np.ascontiguousarray(array), allow_pickle=False)
        parts.append(len(buffer.getvalue()).to_bytes(8, "little") + buffer.getvalue())
    return b"".join(parts)


def _decode(value: bytes) -> Example | None:
    import numpy as np

    arrays = []
    offset = 0
    try:
        while offset < len(value):
            length = int.from_bytes(value[offset:offset + 8], "little")
            chunk = value[offset + 8:offset + 8 + length]
            arrays.append(np.load(io.BytesIO(chunk), allow_pickle=False))
            offset += 8 + length
    except (OSError, ValueError, EOFError):
        return None
    return tuple(arrays)
