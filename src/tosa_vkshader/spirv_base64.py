"""SPIR-V as it is written into attributes: strict base64 of whole 32-bit words.

Both the attribute rules (which report VKS206-VKS208) and the shader stage (which reads
the module only when those rules passed) decode through here, so they always agree.
"""

from __future__ import annotations

import base64
import binascii
from functools import lru_cache

SPIRV_MAGIC = 0x07230203
HEADER_BYTES = 20


@lru_cache(maxsize=256)  # the attribute rules and the shader stage decode the same text
def decode_spirv(code: str) -> bytes | None:
    """The bytes of strict base64 ``code``, or None.

    Strict as the reference converter's decoder (LLVM decodeBase64) is: groups of four,
    `=` only as the padding of the last group (never after a complete group, never
    `===`). Python's decoder, even with validate=True, lets extra `=` through, so the
    padding is checked here; it checks the alphabet."""
    body = code.rstrip("=")
    if len(code) % 4 or len(code) - len(body) > 2 or "=" in body:
        return None
    try:
        return base64.b64decode(code, validate=True)
    except (binascii.Error, ValueError):
        return None


def has_magic(data: bytes) -> bool:
    """Whether ``data`` starts with the SPIR-V magic number (either byte order)."""
    return SPIRV_MAGIC in (int.from_bytes(data[:4], "little"),
                           int.from_bytes(data[:4], "big"))


def embedded_module(code: str) -> bytes | None:
    """The module of a SPIR-V ``shader_code`` value, or None when it is not strict base64
    of whole words starting with a header (the attribute rules report why)."""
    data = decode_spirv(code)
    if data is None or len(data) % 4 or len(data) < HEADER_BYTES or not has_magic(data):
        return None
    return data
