"""The scenario stage: the JSON the runner executes, and the files it names.

One ``dispatch_graph`` of the VGF per dispatch, its bindings the VGF's model-interface
ids. A run holds one or more *cases* (a set of inputs each, with its own push-constant
bytes); with the write check, each case is dispatched twice, every output prefilled
(``shader_access: readwrite`` and a ``src`` file) with zeros, then with a sentinel, so
that the elements the shader never wrote can be told from any value it could write. All the
dispatches run in one scenario-runner process: the runner's own start-up and shader
compilation, most of its time, are paid once.

Resources are written the way the runner reads them (``layout.py``): buffers sized
elements x texel size, tensors with dims and format, images as DDS with width before
height and, for a sampled image, the sampler the VGF carries (in the runner's own
vocabulary; what it cannot express stays at its defaults, and ``check`` says so, VKS255).
Push constants, which the converter drops from the VGF, are given here: their bytes (one
set for every op, or each op's own), the largest size on the graph resource, and one
entry per compute module that declares a block, naming the bytes it gets.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..reference_runner import scenario_sampler
from .layout import image_dims, resource_bytes, write_resource
from .npyfile import Npy, npy_bytes

if TYPE_CHECKING:
    from pathlib import Path

    from .interface import Interface, Resource

# What the write check fills the outputs with before its two dispatches (one byte,
# repeated): zeros, as the runner leaves an output anyway, then all ones (a NaN for every
# float type, -1 for signed integers: a value that an addition into it does not absorb,
# as it would a tiny float). Every byte of one differs from the other's, so no value
# equals both.
PATTERNS = (0x00, 0xFF)


# Push-constant bytes: the same for every op that declares a block, or each op's own
# (the custom op's index -> the bytes of its block).
PushData = bytes | Mapping[int, bytes]


@dataclass(frozen=True, slots=True)
class Case:
    """One set of inputs, one per argument, and push-constant bytes."""

    inputs: tuple[Npy, ...]
    push_constants: PushData | None = None


@dataclass(frozen=True, slots=True)
class Plan:
    """How the run is laid out: ``copies`` dispatches per case (2 with the write check)
    and ``push_targets``, the compute modules that receive push constants, each with the
    op whose bytes it gets (None: the bytes every op gets)."""

    copies: int
    push_targets: tuple[tuple[str, int | None], ...]


def output_file(case: int, copy: int, index: int, resource: Resource, cases: int) -> str:
    """Where the runner writes output ``index`` of dispatch ``copy`` of ``case``."""
    return f"{_case_prefix(case, cases)}output_{index}{_COPY_SUFFIX[copy]}.{_ext(resource)}"


def write_scenario(workdir: Path, interface: Interface, plan: Plan, cases: list[Case],
                   prefilled: bool) -> None:
    """``scenario.json`` and the input files of ``cases``; the prefill files are written
    unless ``prefilled`` (they do not change between runs of a model)."""
    if plan.copies > 1 and not prefilled:
        write_prefill(workdir, interface, plan)
    resources: list[dict[str, Any]] = [{"graph": {"uid": "graph", "src": "model.vgf"}}]
    commands: list[dict[str, Any]] = []
    push_size = None
    for number, case in enumerate(cases):
        prefix = _case_prefix(number, len(cases))
        inputs = []
        for index, (array, resource) in enumerate(zip(case.inputs, interface.inputs,
                                                      strict=True)):
            name = f"{prefix}input_{index}.{_ext(resource)}"
            write_resource(array.data, resource, workdir / name, array.dtype)
            uid = f"{prefix}input_{index}"
            resources.append(_resource(resource, uid, "src", name, _input_access(resource)))
            inputs.append({"id": resource.binding, "set": 0, "resource_ref": uid})
        pushes: dict[int | None, str] = {}  # whose bytes -> their raw_data
        for op, data in _push_parts(case.push_constants):
            uid = f"{prefix}push_constants" + ("" if op is None else f"_op{op}")
            write_push_constants(data, workdir / f"{uid}.npy")
            resources.append({"raw_data": {"uid": uid, "src": f"{uid}.npy"}})
            pushes[op] = uid
            # (the graph's push-constant range covers the largest block)
            push_size = max(push_size or 0, len(data))
        for copy in range(plan.copies):
            bindings = list(inputs)
            for index, resource in enumerate(interface.outputs):
                uid = f"{prefix}output_{index}{_COPY_SUFFIX[copy]}"
                entry = _resource(resource, uid, "dst",
                                  output_file(number, copy, index, resource, len(cases)),
                                  "readwrite" if plan.copies > 1 else "writeonly")
                if plan.copies > 1:
                    entry[resource.kind]["src"] = _prefill_file(copy, index, resource)
                resources.append(entry)
                bindings.append({"id": resource.binding, "set": 0, "resource_ref": uid})
            graph = "graph"
            if interface.shared_results and commands:  # (see Interface.shared_results)
                graph = f"graph_{len(commands)}"
                resources.append({"graph": {"uid": graph, "src": "model.vgf"}})
            dispatch: dict[str, Any] = {"graph_ref": graph, "bindings": bindings}
            if pushes:
                dispatch["push_constants"] = [
                    {"push_data_ref": pushes[op], "shader_target": module}
                    for module, op in plan.push_targets]
            commands.append({"dispatch_graph": dispatch})
    if push_size is not None:
        for entry in resources:
            if "graph" in entry:
                entry["graph"]["push_constants_size"] = push_size
    scenario = {"commands": commands, "resources": resources}
    (workdir / "scenario.json").write_text(json.dumps(scenario, indent=1), encoding="utf-8")


def write_prefill(workdir: Path, interface: Interface, plan: Plan) -> None:
    """Each output's two fillings: the whole resource, zeros and the sentinel."""
    for copy, pattern in enumerate(PATTERNS[:plan.copies]):
        for index, resource in enumerate(interface.outputs):
            write_resource(bytes([pattern]) * resource_bytes(resource), resource,
                           workdir / _prefill_file(copy, index, resource), None)


def _push_parts(data: PushData | None) -> list[tuple[int | None, bytes]]:
    """(whose bytes, the bytes): one part for all ops, or one per op."""
    if data is None:
        return []
    if isinstance(data, bytes):
        return [(None, data)]
    return sorted(data.items())


def write_push_constants(data: bytes, path: Path) -> None:
    """The bytes as the runner reads them (a .npy of uint8)."""
    path.write_bytes(npy_bytes(Npy("uint8", (len(data),), data)))


_COPY_SUFFIX = ("", "_b")


def _case_prefix(case: int, cases: int) -> str:
    return f"case_{case}_" if cases > 1 else ""


def _ext(resource: Resource) -> str:
    return "dds" if resource.kind == "image" else "npy"


def _prefill_file(copy: int, index: int, resource: Resource) -> str:
    return f"sentinel_{PATTERNS[copy]:02x}_output_{index}.{_ext(resource)}"


def _input_access(resource: Resource) -> str:
    """How an input is declared to the runner. Measured with the validation layer: the
    runner gives a "readonly" image VK_IMAGE_USAGE_SAMPLED_BIT but not STORAGE_BIT, and
    an "image_read" or "readwrite" one STORAGE_BIT but not SAMPLED_BIT; a sampled image
    needs the first (VUID-VkWriteDescriptorSet-descriptorType-00337), a storage image the
    second (-00339)."""
    if resource.kind != "image" or resource.descriptor_type.endswith("COMBINED_IMAGE_SAMPLER"):
        return "readonly"
    return "readwrite"


def _resource(resource: Resource, uid: str, file_key: str, name: str,
              access: str) -> dict[str, Any]:
    if resource.kind == "tensor":
        return {"tensor": {"uid": uid, "dims": list(resource.shape),
                           "format": resource.vk_format, "shader_access": access,
                           file_key: name}}
    if resource.kind == "image":
        height, width = image_dims(resource)
        image: dict[str, Any] = {"uid": uid, "dims": [1, width, height, 1],
                                 "format": resource.vk_format, "shader_access": access,
                                 file_key: name}
        if resource.sampler:
            image.update(scenario_sampler(resource.sampler)[0])
        return {"image": image}
    return {"buffer": {"uid": uid, "size": resource_bytes(resource), "shader_access": access,
                       file_key: name}}
