"""The model interface of a VGF, as ``vgf_dump`` writes it: what the scenario must bind.

Inputs and outputs are listed in the model sequence with their interface id (``binding``,
what a scenario binding refers to, never the shader's own binding) and an index into the
resource table (shape, VkFormat, descriptor type). Compute segments name the module the
push constants are addressed to.

`run` reads the interface before it starts the scenario runner, so this module imports
no more than the Vulkan tables; the diagnostics are imported when there is one to raise.
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING

from .. import vulkan

if TYPE_CHECKING:
    from typing import Any

    from .model import Signature

TENSOR = "VK_DESCRIPTOR_TYPE_TENSOR_ARM"
IMAGE_TYPES = ("VK_DESCRIPTOR_TYPE_STORAGE_IMAGE", "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER")
BUFFER_TYPES = ("VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER")


class Resource(namedtuple("Resource", "binding shape vk_format descriptor_type")):
    """An input or output of the VGF: ``binding``, the model-interface id; ``shape``, a
    tuple of ints; ``vk_format`` and ``descriptor_type``, Vulkan's names."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        """How the scenario holds it: ``tensor``, ``image`` or ``buffer``."""
        if self.descriptor_type == TENSOR:
            return "tensor"
        if self.descriptor_type in IMAGE_TYPES:
            return "image"
        return "buffer"

    @property
    def elements(self) -> int:
        count = 1
        for dim in self.shape:
            count *= dim
        return count

    @property
    def texel_size(self) -> int:
        info = vulkan.format_info(self.vk_format)
        assert info is not None  # checked when the interface is read
        return info.block_size


class Interface(namedtuple("Interface", "inputs outputs compute_modules")):
    """The VGF's ``inputs`` and ``outputs`` (tuples of :class:`Resource`) and
    ``compute_modules``, the module name of each COMPUTE segment in order."""

    __slots__ = ()


def read_interface(dump: dict[str, Any]) -> Interface:
    resources = {r["index"]: r for r in dump.get("resources", [])}
    sequence = dump.get("model_sequence", {})
    modules = {m["index"]: m for m in dump.get("modules", [])}

    def resource(entry: dict[str, Any], what: str) -> Resource:
        raw = resources.get(entry["mrt_index"], {})
        found = Resource(entry["binding"], tuple(raw.get("shape") or ()),
                         str(raw.get("vk_format")), str(raw.get("vk_descriptor_type")))
        _require_supported(found, f"{what} {entry.get('index', '?')}")
        return found

    compute = tuple(modules.get(s.get("module_index"), {}).get("name", "")
                    for s in sequence.get("segments", []) if s.get("type") == "COMPUTE")
    return Interface(
        tuple(resource(e, "input") for e in sequence.get("inputs", [])),
        tuple(resource(e, "output") for e in sequence.get("outputs", [])),
        compute)


def match_signature(interface: Interface, signature: Signature) -> None:
    """:class:`RunError` unless the VGF binds one input per argument of the entry function
    and one output per result."""
    problems = []
    if len(interface.inputs) != len(signature.arguments):
        problems.append(f"the VGF has {len(interface.inputs)} input(s) for the "
                        f"{len(signature.arguments)} argument(s) of @{signature.name} (an "
                        "argument used twice or not at all)")
    if len(interface.outputs) != len(signature.results):
        problems.append(f"the VGF has {len(interface.outputs)} output(s) for the "
                        f"{len(signature.results)} result(s) of @{signature.name}: the "
                        "converter drops the output of an op result that nothing consumes")
    if problems:
        from .errors import RunError
        from .rules import UNSUPPORTED_INTERFACE

        raise RunError([UNSUPPORTED_INTERFACE.at(
            "", "; ".join(problems),
            hint="return every result of every custom op, and use every argument once")])


def _require_supported(resource: Resource, what: str) -> None:
    info = vulkan.format_info(resource.vk_format)
    problem = hint = None
    if resource.descriptor_type not in (TENSOR, *IMAGE_TYPES, *BUFFER_TYPES):
        problem = (f"its descriptor type is {resource.descriptor_type}; the scenario runner "
                   "binds only storage/uniform buffers, storage images, combined image "
                   "samplers and tensors")
        hint = "bind it as a storage buffer (an array in the shader), image or tensor"
    elif info is None or not info.is_plain:
        problem = (f"its format is {resource.vk_format} in the VGF (an alias name or an "
                   "unknown format becomes -1 there), so its layout is unknown")
        hint = "use the canonical VK_FORMAT_* name of a plain format"
    elif any(dim <= 0 for dim in resource.shape):
        problem = f"its shape {list(resource.shape)} is not static"
        hint = "give the tensor a static shape"
    if problem:
        from .errors import RunError
        from .rules import UNSUPPORTED_INTERFACE

        raise RunError([UNSUPPORTED_INTERFACE.at(
            "", f"the VGF's {what} (interface binding {resource.binding}) cannot be run: "
                f"{problem}", hint=hint)])
