"""Plain ``.npy`` files as bytes, so that a run can hand its inputs and prefilled outputs
to the scenario runner before numpy is loaded (numpy takes 60-100 ms to import, and is
loaded while the runner works, for the results).

"Plain" is what ``numpy.save`` writes for a C-ordered, little-endian array of a bool,
integer or float element type: format 1.0, the header ``{'descr': '<f4',
'fortran_order': False, 'shape': (1, 256), }``, then exactly the elements' bytes (the
scenario runner writes the same header without the spaces after its commas). Any other
file (Fortran order, big-endian, another format version...) is not read here: the
caller gives it to ``numpy.load``.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
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
_HEADER = re.compile(r"\{'descr': ?'([^']+)', ?'fortran_order': ?False, ?"
                     r"'shape': ?\(((?:\d+, ?)*\d+,?|)\),? ?\} *\n")
# The unsigned type of each size: what an output is prefilled as (the runner takes any
# element type of the tensor's element size).
UNSIGNED = {1: "uint8", 2: "uint16", 4: "uint32", 8: "uint64"}


@dataclass(frozen=True, slots=True)
class Npy:
    """An array as bytes: numpy's name of its element type (``float32``), its shape, and
    its elements in C order."""

    dtype: str
    shape: tuple[int, ...]
    data: bytes


def from_array(value: Any) -> Npy:
    """What numpy makes of ``value`` (an array or anything ``numpy.asarray`` takes)."""
    import numpy as np

    array = np.ascontiguousarray(np.asarray(value))
    return Npy(str(array.dtype), tuple(array.shape), array.tobytes())


def little_endian_twin(dtype: str) -> str | None:
    """For a big-endian element type (``>f4``), numpy's name of the same type in the
    device's little-endian order (``float32``); None for any other."""
    return _DESCRS.get("<" + dtype[1:]) if dtype.startswith(">") else None


def itemsize(dtype: str) -> int:
    """The bytes of one element of numpy's element type ``dtype`` (a plain one)."""
    return int(_NAMES[dtype][2:])


def read_npy(data: bytes) -> Npy | None:
    """The array of a plain .npy file's bytes; None when numpy must read it."""
    if sys.byteorder != "little" or not data.startswith(_MAGIC + b"\x01\x00") or \
            len(data) < 10:
        return None
    end = 10 + int.from_bytes(data[8:10], "little")
    match = _HEADER.fullmatch(data[10:end].decode("latin-1"))
    dtype = _DESCRS.get(match.group(1)) if match else None
    if match is None or dtype is None:
        return None
    shape = tuple(int(dim) for dim in match.group(2).replace(",", " ").split())
    if len(data) - end != math.prod(shape) * itemsize(dtype):
        return None
    return Npy(dtype, shape, data[end:])


def npy_bytes(array: Npy) -> bytes:
    """The .npy file ``numpy.save`` writes for ``array`` (a plain element type), byte for
    byte: format 1.0, the header padded for the first dimension to grow and to a 64-byte
    boundary."""
    header = f"{{'descr': '{_NAMES[array.dtype]}', 'fortran_order': False, " \
             f"'shape': {tuple(array.shape)!r}, }}"
    if array.shape:
        header += " " * (_GROWTH_DIGITS - len(repr(array.shape[0])))
    size = len(header) + 1
    padding = _ALIGN - (len(_MAGIC) + 4 + size) % _ALIGN
    header += " " * padding + "\n"
    return _MAGIC + b"\x01\x00" + len(header).to_bytes(2, "little") + \
        header.encode("latin-1") + array.data
