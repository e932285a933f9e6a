"""The scenario JSON the runner executes: one ``dispatch_graph`` of the VGF.

Bindings use the VGF's model-interface ids. Resources are written the way the runner
reads them (buffers sized elements x texel size, tensors with dims and format, images as
DDS with width before height). Push constants, which the converter drops from the VGF,
are given here: their bytes, their size on the graph resource, and one entry per compute
module that declares a block.
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING

from .layout import buffer_size, image_dims
from .npyfile import HostArray, npy_bytes

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from .interface import Interface, Resource


class PushData(namedtuple("PushData", "path size modules")):
    """The push constants of a run: ``path``, the .npy of uint8 bytes relative to the
    scenario; ``size`` in bytes; ``modules``, the compute modules that receive them."""

    __slots__ = ()


def write_push_data(data: bytes, targets: tuple[str, ...], workdir: Path) -> PushData:
    """The bytes as the runner reads them (a .npy of uint8), for the scenario."""
    (workdir / "push_constants.npy").write_bytes(
        npy_bytes(HostArray("uint8", (len(data),), data)))
    return PushData("push_constants.npy", len(data), targets)


def write_inputs(workdir: Path, interface: Interface, arrays: list[HostArray]) -> None:
    """The inputs in the VGF's layout, as the scenario names them."""
    from .layout import write_input

    for index, (array, resource) in enumerate(zip(arrays, interface.inputs, strict=True)):
        write_input(array, resource, workdir / input_file(index, resource))


def write_scenario(workdir: Path, interface: Interface, push_constants: bytes | None,
                   push_targets: tuple[str, ...]) -> None:
    """``scenario.json`` of the converted ``model.vgf``, with the push constants (their
    file is written too) for the modules ``push_targets``."""
    import json

    push = write_push_data(push_constants, push_targets, workdir) \
        if push_constants is not None else None
    scenario = build_scenario(interface, "model.vgf", push)
    (workdir / "scenario.json").write_text(json.dumps(scenario, indent=2), encoding="utf-8")


def input_file(index: int, resource: Resource) -> str:
    return f"input_{index}.{'dds' if resource.kind == 'image' else 'npy'}"


def output_file(index: int, resource: Resource) -> str:
    return f"output_{index}.{'dds' if resource.kind == 'image' else 'npy'}"


def build_scenario(interface: Interface, vgf: str, push: PushData | None) -> dict[str, Any]:
    graph: dict[str, Any] = {"uid": "graph", "src": vgf}
    resources: list[dict[str, Any]] = [{"graph": graph}]
    bindings = []
    for direction, entries in (("input", interface.inputs), ("output", interface.outputs)):
        for index, resource in enumerate(entries):
            uid = f"{direction}_{index}"
            name = input_file(index, resource) if direction == "input" else \
                output_file(index, resource)
            resources.append(_resource(resource, uid, direction, name))
            bindings.append({"id": resource.binding, "set": 0, "resource_ref": uid})
    dispatch: dict[str, Any] = {"graph_ref": "graph", "bindings": bindings}
    if push is not None:
        graph["push_constants_size"] = push.size
        resources.append({"raw_data": {"uid": "push_constants", "src": push.path}})
        dispatch["push_constants"] = [{"push_data_ref": "push_constants",
                                       "shader_target": module} for module in push.modules]
    return {"commands": [{"dispatch_graph": dispatch}], "resources": resources}


def _resource(resource: Resource, uid: str, direction: str, name: str) -> dict[str, Any]:
    reading = direction == "input"
    file_key = "src" if reading else "dst"
    if resource.kind == "tensor":
        return {"tensor": {"uid": uid, "dims": list(resource.shape),
                           "format": resource.vk_format,
                           "shader_access": "readonly" if reading else "writeonly",
                           file_key: name}}
    if resource.kind == "image":
        height, width = image_dims(resource)
        sampled = resource.descriptor_type.endswith("COMBINED_IMAGE_SAMPLER")
        access = ("image_read" if sampled else "readonly") if reading else "writeonly"
        return {"image": {"uid": uid, "dims": [1, width, height, 1],
                          "format": resource.vk_format, "shader_access": access,
                          file_key: name}}
    return {"buffer": {"uid": uid, "size": buffer_size(resource),
                       "shader_access": "readonly" if reading else "writeonly",
                       file_key: name}}
