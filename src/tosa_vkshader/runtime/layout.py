"""Arrays to and from the files the scenario runner reads and writes.

- **buffers**: the runner allocates elements x texel size of the VkFormat and refuses an
  input file of another byte length, so the array's bytes are padded with zeros (a
  multi-component format over a tensor of scalars makes the buffer larger than the data);
  outputs come back as raw bytes, reinterpreted with the result's dtype.
- **tensors**: typed ``.npy`` both ways.
- **images**: DDS files with a DX10 header (DXGI format); NHWC height is the image
  height, width its width.

Inputs are written from bytes (:class:`~.npyfile.HostArray`), and outputs read back as
bytes, without numpy; numpy makes arrays of them for the API and for ``--expect`` (it is
loaded while the runner works). The diagnostics are imported when there is one to raise.
"""

from __future__ import annotations

import os
import struct
import sys
from typing import TYPE_CHECKING

from .npyfile import HostArray, itemsize, npy_bytes, read_plain_npy

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from .interface import Resource

# VkFormat -> DXGI_FORMAT for the image formats a DDS file can hold.
DXGI_FORMATS = {
    "VK_FORMAT_R32G32B32A32_SFLOAT": 2, "VK_FORMAT_R32G32B32A32_UINT": 3,
    "VK_FORMAT_R32G32B32A32_SINT": 4, "VK_FORMAT_R16G16B16A16_SFLOAT": 10,
    "VK_FORMAT_R16G16B16A16_UNORM": 11, "VK_FORMAT_R16G16B16A16_UINT": 12,
    "VK_FORMAT_R16G16B16A16_SNORM": 13, "VK_FORMAT_R16G16B16A16_SINT": 14,
    "VK_FORMAT_R32G32_SFLOAT": 16, "VK_FORMAT_R32G32_UINT": 17, "VK_FORMAT_R32G32_SINT": 18,
    "VK_FORMAT_R8G8B8A8_UNORM": 28, "VK_FORMAT_R8G8B8A8_UINT": 30,
    "VK_FORMAT_R8G8B8A8_SNORM": 31, "VK_FORMAT_R8G8B8A8_SINT": 32,
    "VK_FORMAT_R16G16_SFLOAT": 34, "VK_FORMAT_R16G16_UNORM": 35, "VK_FORMAT_R16G16_UINT": 36,
    "VK_FORMAT_R16G16_SNORM": 37, "VK_FORMAT_R16G16_SINT": 38,
    "VK_FORMAT_R32_SFLOAT": 41, "VK_FORMAT_R32_UINT": 42, "VK_FORMAT_R32_SINT": 43,
    "VK_FORMAT_R8G8_UNORM": 49, "VK_FORMAT_R8G8_UINT": 50, "VK_FORMAT_R8G8_SNORM": 51,
    "VK_FORMAT_R8G8_SINT": 52, "VK_FORMAT_R16_SFLOAT": 54, "VK_FORMAT_R16_UNORM": 56,
    "VK_FORMAT_R16_UINT": 57, "VK_FORMAT_R16_SNORM": 58, "VK_FORMAT_R16_SINT": 59,
    "VK_FORMAT_R8_UNORM": 61, "VK_FORMAT_R8_UINT": 62, "VK_FORMAT_R8_SNORM": 63,
    "VK_FORMAT_R8_SINT": 64,
}
_DDS_MAGIC = b"DDS "
_HEADER_SIZE = 4 + 124 + 20


def image_dims(resource: Resource) -> tuple[int, int]:
    """(height, width) of an image resource, from its NHWC (or HW) shape."""
    shape = resource.shape
    if len(shape) == 4 and shape[0] == 1:
        return shape[1], shape[2]
    if len(shape) == 3:
        return shape[0], shape[1]
    if len(shape) == 2:
        return shape[0], shape[1]
    from .errors import RunError
    from .rules import UNSUPPORTED_INTERFACE

    raise RunError([UNSUPPORTED_INTERFACE.at(
        "", f"the image at interface binding {resource.binding} has shape {list(shape)}; "
            "`run` feeds 2-D images given as NHWC tensors with N = 1",
        hint="give the image operand the type tensor<1xHxWxCx...>")])


def dxgi_format(resource: Resource) -> int:
    found = DXGI_FORMATS.get(resource.vk_format)
    if found is None:
        from .errors import RunError
        from .rules import UNSUPPORTED_INTERFACE

        raise RunError([UNSUPPORTED_INTERFACE.at(
            "", f"the image at interface binding {resource.binding} has format "
                f"{resource.vk_format}, which has no DDS (DXGI) equivalent",
            hint="use a format such as VK_FORMAT_R32_SFLOAT or VK_FORMAT_R8G8B8A8_UNORM")])
    return found


def write_input(array: HostArray, resource: Resource, path: Path) -> None:
    if resource.kind == "tensor":
        path.write_bytes(npy_bytes(array))
        return
    if resource.kind == "image":
        height, width = image_dims(resource)
        row = width * resource.texel_size
        path.write_bytes(dds_header(height, width, dxgi_format(resource), row)
                         + _padded(array.data, height * row))
        return
    size = buffer_size(resource)
    path.write_bytes(npy_bytes(HostArray("uint8", (size,), _padded(array.data, size))))


def buffer_size(resource: Resource) -> int:
    return resource.elements * resource.texel_size


def _padded(data: bytes, size: int) -> bytes:
    return data[:size] + bytes(max(0, size - len(data)))


# OpenBLAS reads these when numpy loads; without them it starts a thread per core, and
# those threads spin for a while, taking CPU from the runner (the run does no linear
# algebra at all).
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def load_numpy() -> None:
    """Load numpy for the outputs (a no-op once loaded), with one BLAS thread unless the
    environment says how many; the variable is removed again, the tools never see it."""
    if "numpy" in sys.modules:
        return
    chosen = not any(name in os.environ for name in _BLAS_THREADS)
    if chosen:
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import numpy  # noqa: F401
    finally:
        if chosen:
            os.environ.pop("OPENBLAS_NUM_THREADS", None)


def read_output(path: Path, resource: Resource, dtype: str,
                shape: tuple[int, ...]) -> np.ndarray:
    """The result as a numpy array of ``dtype``/``shape`` (see :func:`read_result`)."""
    import numpy as np

    result = read_result(path, resource, dtype, shape)
    return np.frombuffer(result.data, dtype=dtype).reshape(shape).copy()


def read_result(path: Path, resource: Resource, dtype: str,
                shape: tuple[int, ...]) -> HostArray:
    """The result as ``dtype``/``shape``: the first elements of what the runner wrote."""
    raw = path.read_bytes()
    if resource.kind == "image":
        raw = raw[_HEADER_SIZE if raw[84:88] == b"DX10" else _HEADER_SIZE - 20:]
    else:
        plain = read_plain_npy(raw)
        raw = plain.data if plain is not None else _numpy_bytes(path)
    count = 1
    for dim in shape:
        count *= dim
    wanted = count * itemsize(dtype)
    if len(raw) < wanted:
        from .errors import RunError
        from .rules import UNSUPPORTED_INTERFACE

        raise RunError([UNSUPPORTED_INTERFACE.at(
            "", f"the runner wrote {len(raw)} bytes for the output at interface binding "
                f"{resource.binding}, fewer than the {wanted} bytes of the result "
                f"({dtype} {list(shape)})",
            hint="make the output's vkformat match the result's element type")])
    return HostArray(dtype, tuple(shape), raw[:wanted])


def _numpy_bytes(path: Path) -> bytes:
    """The elements of an .npy file the runner wrote in a layout numpy must read."""
    load_numpy()
    import numpy as np

    return np.load(path).tobytes()


def dds_header(height: int, width: int, dxgi: int, pitch: int) -> bytes:
    """A DDS header with the DX10 extension for one 2-D texture, no mipmaps."""
    flags = 0x1 | 0x2 | 0x4 | 0x8 | 0x1000  # caps, height, width, pitch, pixel format
    pixel_format = struct.pack("<II4sIIIII", 32, 0x4, b"DX10", 0, 0, 0, 0, 0)
    header = struct.pack("<IIIIIII", 124, flags, height, width, pitch, 0, 1) + bytes(44) \
        + pixel_format + struct.pack("<IIIII", 0x1000, 0, 0, 0, 0)
    dx10 = struct.pack("<IIIII", dxgi, 3, 0, 1, 0)  # TEXTURE2D, array size 1
    return _DDS_MAGIC + header + dx10
