"""Arrays to and from the files the scenario runner reads and writes.

- **buffers**: the runner allocates elements x texel size of the VkFormat (a
  three-component format padded to four) and refuses an input file of another byte
  length (and a buffer of another size than the VGF's), so the array's bytes are padded
  (a multi-component format over a tensor of scalars makes the buffer larger than the
  data); files are ``.npy`` of raw ``uint8`` bytes both ways.
- **tensors**: typed ``.npy`` both ways.
- **images**: DDS files with a DX10 header (DXGI format); NHWC height is the image height,
  width its width; the channels are the format's components in memory order (B, G, R, A
  for ``VK_FORMAT_B8G8R8A8_UNORM``). Only the formats the 0.11.0 runner's DDS reader and
  writer know can be used (``rules/runtime.py``, measured).

An output read back is the raw bytes of the whole resource (:class:`RawOutput`): the
result is its first elements x itemsize bytes, and the write check looks at the rest too.
Files are written and read as bytes (``npyfile.py``): nothing here needs numpy before
the runner starts.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import vulkan
from .errors import RunError
from .npyfile import UNSIGNED, Npy, itemsize, npy_bytes, read_npy

if TYPE_CHECKING:
    from pathlib import Path

    from .interface import Resource

# Image formats the 0.11.0 scenario runner's DDS reader and writer accept, with their
# DXGI format (measured: each was fed as a sampled image and written as a storage image
# on lavapipe; every other format with a DXGI equivalent fails with "Unknown DXGI format:
# N" when read or "Unknown VkFormat: ..." when written).
RUNNER_IMAGE_FORMATS = {
    "VK_FORMAT_R32G32B32A32_SFLOAT": 2, "VK_FORMAT_R16G16B16A16_SFLOAT": 10,
    "VK_FORMAT_R16G16B16A16_SINT": 14, "VK_FORMAT_R8G8B8A8_UNORM": 28,
    "VK_FORMAT_R8G8B8A8_SNORM": 31, "VK_FORMAT_R8G8B8A8_SINT": 32,
    "VK_FORMAT_R16G16_SFLOAT": 34, "VK_FORMAT_R32_SFLOAT": 41, "VK_FORMAT_R32_UINT": 42,
    "VK_FORMAT_R8G8_UNORM": 49, "VK_FORMAT_R8G8_UINT": 50, "VK_FORMAT_R8G8_SINT": 52,
    "VK_FORMAT_R16_SFLOAT": 54, "VK_FORMAT_R16_UINT": 57, "VK_FORMAT_R8_UNORM": 61,
    "VK_FORMAT_R8_SNORM": 63, "VK_FORMAT_B8G8R8A8_UNORM": 87,
}
# Formats with a DXGI equivalent that the runner refuses, and that equivalent (what the
# runner's message names).
_REFUSED_DXGI = {
    "VK_FORMAT_R32G32B32A32_UINT": 3, "VK_FORMAT_R32G32B32A32_SINT": 4,
    "VK_FORMAT_R16G16B16A16_UNORM": 11, "VK_FORMAT_R16G16B16A16_UINT": 12,
    "VK_FORMAT_R16G16B16A16_SNORM": 13, "VK_FORMAT_R32G32_SFLOAT": 16,
    "VK_FORMAT_R32G32_UINT": 17, "VK_FORMAT_R32G32_SINT": 18,
    "VK_FORMAT_R8G8B8A8_SRGB": 29, "VK_FORMAT_R8G8B8A8_UINT": 30,
    "VK_FORMAT_R16G16_UNORM": 35, "VK_FORMAT_R16G16_UINT": 36,
    "VK_FORMAT_R16G16_SNORM": 37, "VK_FORMAT_R16G16_SINT": 38, "VK_FORMAT_R32_SINT": 43,
    "VK_FORMAT_R8G8_SNORM": 51, "VK_FORMAT_R16_UNORM": 56, "VK_FORMAT_R16_SNORM": 58,
    "VK_FORMAT_R16_SINT": 59, "VK_FORMAT_R8_UINT": 62, "VK_FORMAT_R8_SINT": 64,
    "VK_FORMAT_B8G8R8A8_SRGB": 91,
}


def image_format_refusal(vk_format: str) -> str:
    """Why the runner cannot take an image of ``vk_format``."""
    dxgi = _REFUSED_DXGI.get(vk_format)
    said = f"DXGI format {dxgi}, which the 0.11.0 scenario runner's DDS reader and " \
           f"writer do not know (\"Unknown DXGI format: {dxgi}\")" if dxgi is not None else \
        "a format without a DDS (DXGI) equivalent the 0.11.0 scenario runner knows"
    return f"{vk_format} is {said}, so the image cannot be fed to or read back from the runner"


def _runnable_twin(fmt: str) -> str:
    """A format the runner takes with the same components and numeric type, more of them
    if needed (R32G32_SFLOAT -> R32G32B32A32_SFLOAT)."""
    listed = f"use one of {', '.join(RUNNER_IMAGE_FORMATS)}"
    info = vulkan.format_info(fmt)
    if info is None or not info.components:
        return listed
    bits = info.components[0].bits
    numeric = info.components[-1].numeric
    for name in RUNNER_IMAGE_FORMATS:
        twin = vulkan.format_info(name)
        if twin is not None and len(twin.components) >= len(info.components) and \
                twin.components[0].bits == bits and twin.components[-1].numeric == numeric:
            return f"use {name}"
    return listed


_DDS_MAGIC = b"DDS "
_HEADER_SIZE = 4 + 124 + 20


def image_dims(resource: Resource) -> tuple[int, int]:
    """(height, width) of an image resource, from its NHWC (or HWC, HW) shape."""
    shape = resource.shape
    if len(shape) == 4 and shape[0] == 1:
        return shape[1], shape[2]
    if len(shape) in (2, 3):
        return shape[0], shape[1]
    from .rules import UNSUPPORTED_INTERFACE

    raise RunError([UNSUPPORTED_INTERFACE.at(
        "", f"the image at interface binding {resource.binding} has shape {list(shape)}; "
            "`run` feeds 2-D images given as NHWC tensors with N = 1",
        hint="give the image operand the type tensor<1xHxWxCx...>")])


def dxgi_format(resource: Resource) -> int:
    """The DXGI format of an image resource; :class:`RunError` (VKS959) for a format the
    runner's DDS path does not know."""
    found = RUNNER_IMAGE_FORMATS.get(resource.vk_format)
    if found is None:
        from .rules import UNSUPPORTED_INTERFACE

        raise RunError([UNSUPPORTED_INTERFACE.at(
            "", f"the image at interface binding {resource.binding}: "
                f"{image_format_refusal(resource.vk_format)}",
            hint=_runnable_twin(resource.vk_format))])
    return found


def resource_bytes(resource: Resource) -> int:
    """The bytes of the resource's data as the runner holds it."""
    if resource.kind == "image":
        height, width = image_dims(resource)
        return height * width * resource.texel_size
    if resource.kind == "buffer":
        return resource.elements * buffer_element_bytes(resource.vk_format)
    return resource.elements * resource.texel_size


def buffer_element_bytes(vk_format: str) -> int:
    """What the runner allocates per element of a buffer (``FormatInfo.buffer_element_bytes``:
    a three-component format is padded to four components)."""
    info = vulkan.format_info(vk_format)
    assert info is not None  # checked when the interface is read
    return info.buffer_element_bytes


def write_resource(data: bytes, resource: Resource, path: Path, dtype: str | None) -> None:
    """``data`` (padded or cut to the resource's size) as the file the runner reads for
    ``resource``; a tensor's file is typed ``dtype`` (None: unsigned integers of the
    format's texel size, which the runner takes for any tensor of that element size)."""
    size = resource_bytes(resource)
    data = data[:size] + bytes(max(0, size - len(data)))
    if resource.kind == "image":
        height, width = image_dims(resource)
        path.write_bytes(dds_header(height, width, dxgi_format(resource),
                                    width * resource.texel_size) + data)
    elif resource.kind == "tensor":
        path.write_bytes(npy_bytes(Npy(dtype or UNSIGNED[resource.texel_size],
                                       resource.shape, data)))
    else:
        path.write_bytes(npy_bytes(Npy("uint8", (size,), data)))


@dataclass(frozen=True, slots=True)
class RawOutput:
    """What the runner wrote for an output: all of its bytes."""

    data: bytes

    def result(self, dtype: str, shape: tuple[int, ...]) -> Npy:
        """The result: the first elements of ``dtype`` in ``shape``."""
        return Npy(dtype, shape, self.data[:math.prod(shape) * itemsize(dtype)])


def read_output(path: Path, resource: Resource, dtype: str,
                shape: tuple[int, ...]) -> RawOutput:
    """The output file's bytes; :class:`RunError` when it holds fewer than the result."""
    raw = path.read_bytes()
    if resource.kind == "image":
        raw = raw[_HEADER_SIZE if raw[84:88] == b"DX10" else _HEADER_SIZE - 20:]
    else:
        plain = read_npy(raw)
        raw = plain.data if plain is not None else _numpy_bytes(path)
    wanted = math.prod(shape) * itemsize(dtype)
    if len(raw) < wanted:
        from .rules import UNSUPPORTED_INTERFACE

        raise RunError([UNSUPPORTED_INTERFACE.at(
            "", f"the runner wrote {len(raw)} bytes for the output at interface binding "
                f"{resource.binding}, fewer than the {wanted} bytes of the result "
                f"({dtype} {list(shape)})",
            hint="make the output's vkformat match the result's element type")])
    return RawOutput(raw)


def _numpy_bytes(path: Path) -> bytes:
    """The elements of an .npy file the runner wrote in a layout numpy must read."""
    import numpy as np

    return np.load(path, allow_pickle=False).tobytes()


def dds_header(height: int, width: int, dxgi: int, pitch: int) -> bytes:
    """A DDS header with the DX10 extension for one 2-D texture, no mipmaps."""
    flags = 0x1 | 0x2 | 0x4 | 0x8 | 0x1000  # caps, height, width, pitch, pixel format
    pixel_format = struct.pack("<II4sIIIII", 32, 0x4, b"DX10", 0, 0, 0, 0, 0)
    header = struct.pack("<IIIIIII", 124, flags, height, width, pitch, 0, 1) + bytes(44) \
        + pixel_format + struct.pack("<IIIII", 0x1000, 0, 0, 0, 0)
    dx10 = struct.pack("<IIIII", dxgi, 3, 0, 1, 0)  # TEXTURE2D, array size 1
    return _DDS_MAGIC + header + dx10
