"""Plain ``.npy`` files read and written without numpy, so that a run can hand the inputs
to the tools before numpy is loaded (it loads while the scenario runner works).

"Plain" is what ``numpy.save`` writes for a C-ordered, little-endian array of a bool,
integer or float element type: format 1.0, the header ``{'descr': '<f4',
'fortran_order': False, 'shape': (1, 256), }``, then exactly the elements' bytes. Any
other file (Fortran order, big-endian, structured or object elements, another format
version, a short or long body) is not read here: the caller gives it to ``numpy.load``,
whose array or error then stands as before. The scenario runner writes the same header
without the spaces after its commas, which is read too.

Results are written with :func:`npy_bytes`, byte for byte what ``numpy.save`` writes, so
that a run without ``--expect`` never loads numpy. Nothing here imports more than the
interpreter has loaded at start-up (``re``, ``collections``): `run` reads its inputs
with it before the reference tools are started.
"""

from __future__ import annotations

import re
import sys
from collections import namedtuple
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

_MAGIC = b"\x93NUMPY"
_ALIGN = 64  # numpy aligns the data of the files it writes to 64 bytes
# numpy.save pads the header for the first dimension to grow to this many digits
_GROWTH_DIGITS = 21
# descr -> numpy's name of the element type, for the types a run can bind
_DESCRS = {
    "|b1": "bool", "|i1": "int8", "|u1": "uint8",
    "<i2": "int16", "<i4": "int32", "<i8": "int64",
    "<u2": "uint16", "<u4": "uint32", "<u8": "uint64",
    "<f2": "float16", "<f4": "float32", "<f8": "float64",
}
_NAMES = {name: descr for descr, name in _DESCRS.items()}
# compiled on first use (0.5 ms), after `run` has started the converter
_HEADER = (r"\{'descr': ?'([^']+)', ?'fortran_order': ?False, ?"
           r"'shape': ?\(((?:\d+, ?)*\d+,?|)\),? ?\} *\n")


class HostArray(namedtuple("HostArray", "dtype shape data")):
    """An array as bytes: ``dtype``, numpy's element type name (``float32``); ``shape``,
    a tuple of ints; ``data``, the C-ordered elements."""

    __slots__ = ()


def from_array(value: Any) -> HostArray:
    """What numpy makes of ``value`` (an array or anything ``numpy.asarray`` takes)."""
    import numpy as np

    array = np.ascontiguousarray(np.asarray(value))
    return HostArray(str(array.dtype), tuple(array.shape), array.tobytes())


def itemsize(dtype: str) -> int:
    """The bytes of one element of numpy's element type ``dtype`` (one ``_DESCRS`` names)."""
    return int(_NAMES[dtype][2:])


def read_plain_npy(data: bytes) -> HostArray | None:
    """The array of a plain .npy file's bytes; None when numpy must read it."""
    if sys.byteorder != "little" or not data.startswith(_MAGIC + b"\x01\x00") or \
            len(data) < 10:
        return None
    end = 10 + int.from_bytes(data[8:10], "little")
    match = re.fullmatch(_HEADER, data[10:end].decode("latin-1"))
    dtype = _DESCRS.get(match.group(1)) if match else None
    if match is None or dtype is None:
        return None
    shape = tuple(int(dim) for dim in match.group(2).replace(",", " ").split())
    count = 1
    for dim in shape:
        count *= dim
    if len(data) - end != count * int(match.group(1)[2:]):
        return None
    return HostArray(dtype, shape, data[end:])


def npy_bytes(array: HostArray) -> bytes:
    """The .npy file ``numpy.save`` writes for ``array`` (its dtype one that ``_DESCRS``
    names), byte for byte: format 1.0, the header padded for the first dimension to grow
    and to a 64-byte boundary (a whole 64 bytes when already aligned)."""
    header = f"{{'descr': '{_NAMES[array.dtype]}', 'fortran_order': False, " \
             f"'shape': {tuple(array.shape)!r}, }}"
    if array.shape:
        header += " " * (_GROWTH_DIGITS - len(repr(array.shape[0])))
    size = len(header) + 1
    padding = _ALIGN - (len(_MAGIC) + 4 + size) % _ALIGN
    header += " " * padding + "\n"
    return _MAGIC + b"\x01\x00" + len(header).to_bytes(2, "little") + \
        header.encode("latin-1") + array.data
