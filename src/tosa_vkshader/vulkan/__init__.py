"""Facts from the Vulkan registry (vk.xml), read from generated tables (``tables.py``,
made by ``python -m tosa_vkshader.vulkan.generate``; never from vk.xml at run time).
"""

from __future__ import annotations

from collections import namedtuple
from functools import cache

from . import tables as _t

REGISTRY_VERSION: str = _t.REGISTRY_VERSION


class Component(namedtuple("Component", "channel bits numeric")):
    """One component of a format: ``channel`` (R, G, B, A, D, S, ...), ``bits`` (an int,
    or 'compressed' for block-compressed formats), ``numeric`` (UNORM, SINT, SFLOAT,
    BOOL, ...)."""

    __slots__ = ()


class FormatInfo(namedtuple("FormatInfo", "name size_class block_size components packed "
                                          "compressed planes spirv_image_format")):
    """A VkFormat: ``name`` (canonical), ``size_class``, ``block_size`` (bytes per texel
    block), ``components`` (a tuple of :class:`Component`), ``packed`` (bits, or None),
    ``compressed`` (the scheme, or None), ``planes`` (0 when not multi-planar),
    ``spirv_image_format`` (or None)."""

    __slots__ = ()

    @property
    def is_single_component(self) -> bool:
        return len(self.components) == 1

    @property
    def buffer_element_bytes(self) -> int:
        """What the reference runtime allocates per element of a buffer of this format:
        the texel size, a three-component format padded to four components (measured: 16
        bytes an element for R32G32B32_SFLOAT, 8 for R16G16B16_SFLOAT, 4 for R8G8B8_SINT;
        the scenario runner refuses a buffer of elements x texel size)."""
        if len(self.components) == 3 and self.packed is None:
            return self.block_size // 3 * 4
        return self.block_size

    @property
    def is_plain(self) -> bool:
        """Not compressed, not multi-planar, not depth/stencil: an ordinary texel layout."""
        return (
            self.compressed is None
            and self.planes == 0
            and all(c.channel not in ("D", "S") for c in self.components)
        )

    @property
    def numeric(self) -> str | None:
        """The numeric class shared by every component, if they share one."""
        kinds = {c.numeric for c in self.components}
        return kinds.pop() if len(kinds) == 1 else None

    @property
    def scalar(self) -> tuple[str, int] | None:
        """(numeric class, bits) of the one scalar every component of a plain format
        holds (R8G8B8A8_UNORM: ("UNORM", 8)); None when the components differ."""
        numeric = self.numeric
        if numeric is None or not self.is_plain:
            return None
        widths = {c.bits for c in self.components}
        bits = widths.pop() if len(widths) == 1 else None
        return (numeric, bits) if isinstance(bits, int) else None


def canonical_descriptor_type(name: str) -> str | None:
    return _t.DESCRIPTOR_TYPES.get(name)


def canonical_format(name: str) -> str | None:
    return _t.FORMAT_NAMES.get(name)


@cache
def format_info(name: str) -> FormatInfo | None:
    canonical = _t.FORMAT_NAMES.get(name)
    if canonical is None:
        return None
    size_class, block, comps, packed, compressed, planes, spirv = _t.FORMATS[canonical]
    return FormatInfo(canonical, size_class, block, tuple(Component(*c) for c in comps),
                      packed, compressed, planes, spirv)


def descriptor_type_names() -> list[str]:
    return list(_t.DESCRIPTOR_TYPES)


def format_names() -> list[str]:
    return list(_t.FORMAT_NAMES)


def closest(word: str, candidates, *, cutoff: float = 0.75) -> str | None:
    """The single closest candidate, compared case-insensitively, or None."""
    upper = {c.upper(): c for c in candidates}
    import difflib  # only for names that are not Vulkan's

    match = difflib.get_close_matches(word.upper(), list(upper), n=1, cutoff=cutoff)
    return upper[match[0]] if match else None


# One way a Vulkan device can enable a SPIR-V capability or extension; see the comment
# above SPIRV_CAPABILITY_ENABLES in tables.py for the shapes.
Enable = tuple


def capability_enables(name: str) -> tuple[Enable, ...] | None:
    """The ways a device can enable SPIR-V capability ``name`` (any one suffices), or None
    when the Vulkan registry does not list it (Vulkan never allows it)."""
    return _t.SPIRV_CAPABILITY_ENABLES.get(name)


def extension_enables(name: str) -> tuple[Enable, ...] | None:
    """The ways a device can enable SPIR-V extension ``name``, or None when unlisted."""
    return _t.SPIRV_EXTENSION_ENABLES.get(name)
