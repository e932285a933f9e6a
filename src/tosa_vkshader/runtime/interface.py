"""The model interface of a VGF, as ``vgf_dump`` writes it: what the scenario must bind.

Inputs and outputs are listed in the model sequence with their interface id (``binding``,
what a scenario binding refers to, never the shader's own binding) and an index into the
resource table (shape, VkFormat, descriptor type, and for a sampled image the sampler the
converter kept from the op's ``input_N_sampler``). Compute segments name the module the
push constants are addressed to.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import vulkan
from ..reference_runner import RUNNER_DESCRIPTOR_REFUSAL
from .errors import RunError

if TYPE_CHECKING:
    from typing import Any

    from .model import Signature

TENSOR = "VK_DESCRIPTOR_TYPE_TENSOR_ARM"
SAMPLED = "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER"
IMAGE_TYPES = ("VK_DESCRIPTOR_TYPE_STORAGE_IMAGE", SAMPLED)
BUFFER_TYPES = ("VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER")


@dataclass(frozen=True, slots=True)
class Resource:
    """An input or output of the VGF: ``binding``, the model-interface id; ``shape``;
    ``vk_format`` and ``descriptor_type``, Vulkan's names; ``sampler``, the sampler
    configuration the VGF carries for a sampled image (field -> Vulkan name)."""

    binding: int
    shape: tuple[int, ...]
    vk_format: str
    descriptor_type: str
    sampler: dict[str, str] = field(default_factory=dict)

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
        return math.prod(self.shape)

    @property
    def texel_size(self) -> int:
        info = vulkan.format_info(self.vk_format)
        assert info is not None  # checked when the interface is read
        return info.block_size


@dataclass(frozen=True, slots=True)
class Interface:
    """The VGF's inputs and outputs, and the module name of each COMPUTE segment in
    order (what push constants are addressed to). ``shared_results``: a segment reads a
    resource that no segment writes and the model does not take, which the runtime backs
    with a result's memory (a result the graph also consumes, ``return %1, %0`` with
    ``%0`` read by the next op): every dispatch of one graph resource then shares it,
    so the scenario gives each dispatch a graph of its own."""

    inputs: tuple[Resource, ...]
    outputs: tuple[Resource, ...]
    compute_modules: tuple[str, ...]
    shared_results: bool = False


def read_interface(dump: dict[str, Any]) -> Interface:
    resources = {r["index"]: r for r in dump.get("resources", [])}
    sequence = dump.get("model_sequence", {})
    modules = {m["index"]: m for m in dump.get("modules", [])}

    def resource(entry: dict[str, Any], what: str) -> Resource:
        raw = resources.get(entry["mrt_index"], {})
        sampler = raw.get("sampler_config")
        found = Resource(entry["binding"], tuple(raw.get("shape") or ()),
                         str(raw.get("vk_format")), str(raw.get("vk_descriptor_type")),
                         {str(k): str(v) for k, v in sampler.items()}
                         if isinstance(sampler, dict) else {})
        _require_supported(found, f"{what} {entry.get('index', '?')}")
        return found

    compute = tuple(modules.get(s.get("module_index"), {}).get("name", "")
                    for s in sequence.get("segments", []) if s.get("type") == "COMPUTE")
    _require_one_resource_per_input(resources, sequence.get("inputs", []))
    segments = sequence.get("segments", [])
    taken = {e["mrt_index"] for e in sequence.get("inputs", [])}
    written = {e["mrt_index"] for s in segments for e in s.get("outputs", [])}
    read = {e["mrt_index"] for s in segments for e in s.get("inputs", [])}
    return Interface(
        tuple(resource(e, "input") for e in sequence.get("inputs", [])),
        tuple(resource(e, "output") for e in sequence.get("outputs", [])),
        compute, shared_results=bool(read - taken - written))


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
        from .rules import UNSUPPORTED_INTERFACE

        raise RunError([UNSUPPORTED_INTERFACE.at(
            "", "; ".join(problems),
            hint="return every result of every custom op, and use every argument once")])


def _require_one_resource_per_input(resources: dict[int, dict[str, Any]],
                                    inputs: list[dict[str, Any]]) -> None:
    """:class:`RunError` for an argument the converter made two resources of: read as a
    buffer (or image) by a custom op and as a tensor by a TOSA op. The model sequence
    binds one of them, and the scenario runner stops at the other (measured with the
    0.11.0 runner: "No resource found for VGF binding"); the same argument read as a
    tensor by both runs."""
    bound = {entry["mrt_index"]: entry for entry in inputs}
    problems = []
    for index, raw in sorted(resources.items()):
        if raw.get("category") != "INPUT" or index in bound:
            continue
        group = raw.get("alias_group_id")
        twin = next((entry for mrt, entry in bound.items()
                     if resources.get(mrt, {}).get("alias_group_id") == group), None)
        which = f"argument {twin.get('index', '?')}" if twin else "an argument"
        other = resources.get(twin["mrt_index"]) if twin else None
        as_what = f" (a {other.get('vk_descriptor_type')})" if other else ""
        problems.append(f"{which}{as_what} is also read as a "
                        f"{raw.get('vk_descriptor_type')} by another op: the converter made "
                        "a second resource of it, which the model sequence does not bind")
    if problems:
        from .rules import UNSUPPORTED_INTERFACE

        raise RunError([UNSUPPORTED_INTERFACE.at(
            "", f"{'; '.join(problems)}: the scenario runner stops at it (\"No resource "
                "found for VGF binding\")",
            hint="declare the custom op's operand a tensor (VK_DESCRIPTOR_TYPE_TENSOR_ARM), "
                 "as the TOSA op reads it: then one resource serves both")])


def _require_supported(resource: Resource, what: str) -> None:
    info = vulkan.format_info(resource.vk_format)
    problem = hint = None
    if resource.descriptor_type not in (TENSOR, *IMAGE_TYPES, *BUFFER_TYPES):
        problem = f"its descriptor type is {resource.descriptor_type}: {RUNNER_DESCRIPTOR_REFUSAL}"
        hint = "bind it as a storage buffer (an array in the shader), image or tensor"
    elif info is None or not info.is_plain:
        problem = (f"its format is {resource.vk_format} in the VGF (an alias name or an "
                   "unknown format becomes -1 there), so its layout is unknown")
        hint = "use the canonical VK_FORMAT_* name of a plain format"
    elif any(dim <= 0 for dim in resource.shape):
        problem = f"its shape {list(resource.shape)} is not static"
        hint = "give the tensor a static shape"
    if problem:
        from .rules import UNSUPPORTED_INTERFACE

        raise RunError([UNSUPPORTED_INTERFACE.at(
            "", f"the VGF's {what} (interface binding {resource.binding}) cannot be run: "
                f"{problem}", hint=hint)])
