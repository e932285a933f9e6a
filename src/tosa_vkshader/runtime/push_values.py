"""Push-constant values by name (``run --push-constant scale=2.0``), laid out as the shader
declares its block.

The offsets and sizes come from the reflected SPIR-V (``Offset``, ``ArrayStride``,
``MatrixStride`` as the compiler laid them out, std430 or std140), so the bytes are what
the shader reads: each member's value is its components, comma-separated, in the
shader's order (a ``vec4`` takes four, a ``mat2`` its two columns of two, a ``float[3]``
three). Every member must be given; the gaps the layout leaves are zeros.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..spirv.records import PushConstantBlock, PushConstantMember

# float32x4 (a vec4), float32x2x3 (a mat3x2: three columns of two), uint32[4] (an array)
_TYPE = re.compile(r"^(?P<kind>float|int|uint|bool)(?P<bits>\d+)(?P<dims>(?:x\d+){0,2})"
                   r"(?P<array>(?:\[\d+\])?)$")
_PACK = {("float", 16): "e", ("float", 32): "f", ("float", 64): "d",
         ("int", 8): "b", ("int", 16): "h", ("int", 32): "i", ("int", 64): "q",
         ("uint", 8): "B", ("uint", 16): "H", ("uint", 32): "I", ("uint", 64): "Q",
         ("bool", 32): "I"}


class PushValueError(ValueError):
    """A value that does not fit the block; the message names the member and why."""


def split_assignments(texts: Sequence[str]) -> dict[str, str]:
    """``["scale=2.0", "tint=1,0,0,1"]`` as a mapping; raises :class:`PushValueError`."""
    values: dict[str, str] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        name = name.strip()
        if not sep or not name or not value.strip():
            raise PushValueError(f"--push-constant {text!r} is not NAME=VALUE[,VALUE...]")
        if name in values:
            raise PushValueError(f"--push-constant gives {name!r} twice")
        values[name] = value
    return values


def push_bytes(block: PushConstantBlock, values: Mapping[str, str]) -> bytes:
    """The block's bytes with each member's value at its offset."""
    members = {m.name: m for m in block.members}
    unknown = [name for name in values if name not in members]
    if unknown:
        listing = ", ".join(f"{m.name} ({m.type})" for m in block.members)
        raise PushValueError(f"the push-constant block {block.name!r} has no member "
                             f"{', '.join(map(repr, unknown))}; its members: {listing}")
    missing = [m.name for m in block.members if m.name not in values]
    if missing:
        raise PushValueError(f"--push-constant gives no value for {', '.join(missing)} of "
                             f"the push-constant block {block.name!r} (every member is "
                             "needed: the shader reads them all)")
    data = bytearray(block.size)
    for name, text in values.items():
        _place(data, members[name], text)
    return bytes(data)


def _place(data: bytearray, member: PushConstantMember, text: str) -> None:
    match = _TYPE.match(member.type)
    code = _PACK.get((match.group("kind"), int(match.group("bits")))) if match else None
    if match is None or code is None:
        raise PushValueError(f"push constant {member.name!r} is a {member.type}: only "
                             "scalars, vectors, matrices and arrays of them can be given "
                             "by name (give the block's bytes with --push-constants)")
    dims = [int(d) for d in match.group("dims").split("x")[1:]]
    rows = dims[0] if dims else 1
    columns = dims[1] if len(dims) > 1 else 1
    length = int(match.group("array")[1:-1]) if match.group("array") else 1
    items = [part.strip() for part in text.split(",")]
    wanted = rows * columns * length
    if len(items) != wanted:
        raise PushValueError(f"push constant {member.name!r} is a {member.type}: it takes "
                             f"{wanted} value(s), {len(items)} given")
    width = struct.calcsize(code)
    element = member.size // length  # the array stride (std140 rounds it up to 16)
    column = element // columns  # the matrix stride
    for k, item in enumerate(items):
        index, rest = divmod(k, rows * columns)
        col, row = divmod(rest, rows)
        offset = member.offset + index * element + col * column + row * width
        try:
            number = float(item) if match.group("kind") == "float" else int(item, 0)
            struct.pack_into("<" + code, data, offset, number)
        except (ValueError, struct.error, OverflowError) as exc:
            raise PushValueError(f"push constant {member.name!r} ({member.type}): {item!r} "
                                 f"is not a {match.group('kind')}{match.group('bits')} value "
                                 f"({exc})") from None
