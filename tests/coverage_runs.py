"""Running ops on lavapipe to see what their shaders actually write.

`tosa-vkshader run` hands back results; these tests need more: which elements a dispatch
left unwritten and whether it wrote past a result. So every output resource is given to
the scenario runner prefilled with a sentinel (``shader_access: readwrite`` and a ``src``
file, which the runner accepts for buffers, tensors and images): afterwards, an element
still holding the sentinel was never written. The runner sizes each buffer exactly as the
VGF says, so the padding that catches writes past a result is in the model: an output
buffer's result type is run as a flat tensor of ``PAD`` more bytes (a shader indexes a
buffer linearly, so only what it writes past the end changes; an op whose guard reads
``.length()`` is run as it is, ``Op.pad = False``). A changed byte after the result's
buffer was written past it. Several ops go into one model (one conversion, one run)
where that stays readable. The tools are the reference ones (tests/toolchain.py).
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from toolchain import LAVAPIPE, convert

from tosa_vkshader.codegen.emit import mlir_string
from tosa_vkshader.runtime.toolchain import find_toolchain

PAD = 16384  # bytes after each output buffer
SENTINEL = 0xA5  # every byte of an output before the run
DTYPES = {"f32": np.float32, "i32": np.int32, "ui32": np.uint32, "i8": np.int8,
          "f16": np.float16, "i16": np.int16}
# VkFormat -> (DXGI format, bytes per texel) of the images these tests use
DXGI = {"VK_FORMAT_R32_SFLOAT": (41, 4), "VK_FORMAT_R8G8B8A8_UNORM": (28, 4),
        "VK_FORMAT_R32G32B32A32_SFLOAT": (2, 16)}


@dataclass
class Op:
    """One custom op of a model: its attributes and tensor types."""

    name: str
    attrs: dict
    operands: list[str]
    results: list[str]
    pad: bool = True  # run its output buffers with padding after them

    def run_results(self) -> list[str]:
        """The result types of the run: output buffers flattened and padded."""
        found = []
        for index, result in enumerate(self.results):
            buffer = self.attrs.get(f"output_{index}_vkdescriptortype") == \
                "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"
            if not (self.pad and buffer):
                found.append(result)
                continue
            dtype, shape = _dtype(result)
            texel = _texel(self.attrs[f"output_{index}_vkformat"])
            extra = PAD // dtype.itemsize
            found.append(f"tensor<{int(np.prod(shape)) * texel // dtype.itemsize + extra}x"
                         f"{result.rsplit('x', 1)[1]}")
        return found


@dataclass
class Written:
    """One result after the run."""

    values: np.ndarray  # the result's elements, with its dtype and shape
    unwritten: int  # elements still holding the sentinel
    first_unwritten: tuple[int, ...] | None
    past: int  # elements' worth of padding bytes the shader changed (buffers only)


def model_text(ops: list[Op], run: bool = False) -> str:
    """A function taking every op's operands and returning every op's results, in order
    (``run``: with the padded result types of the run)."""
    args, results, lines = [], [], []
    for k, op in enumerate(ops):
        op_results = op.run_results() if run else op.results
        names = []
        for operand in op.operands:
            names.append(f"%a{len(args)}")
            args.append(f"%a{len(args)}: {operand}")
        attrs = mlir_string(json.dumps(op.attrs))
        kinds = ", ".join(op_results)
        produced = f"%r{k}" if len(op_results) == 1 else f"%r{k}:{len(op_results)}"
        lines.append(
            f'    {produced} = tosa.custom {", ".join(names)} {{domain_name = '
            f'"com.arm.VulkanCustomShader", operator_name = "{op.name}", implementation_attrs'
            f' = {attrs}}} : ({", ".join(op.operands)}) -> '
            f'{kinds if len(op_results) == 1 else "(" + kinds + ")"}')
        results += [(f"%r{k}" if len(op_results) == 1 else f"%r{k}#{j}", t)
                    for j, t in enumerate(op_results)]
    returned = ", ".join(v for v, _ in results)
    types = ", ".join(t for _, t in results)
    return "\n".join([
        "module {",
        f"  func.func @main({', '.join(args)}) -> ({types}) {{",
        *lines,
        f"    return {returned} : {types}",
        "  }",
        "}", ""])


def _dtype(tensor: str) -> tuple[np.dtype, tuple[int, ...]]:
    body = tensor[len("tensor<"):-1].split("x")
    return np.dtype(DTYPES[body[-1]]), tuple(int(d) for d in body[:-1])


def _image_file(path: Path, data: bytes, width: int, height: int, vkformat: str) -> None:
    from tosa_vkshader.runtime.layout import dds_header

    dxgi, texel = DXGI[vkformat]
    path.write_bytes(dds_header(height, width, dxgi, width * texel) + data)


def run_written(ops: list[Op], inputs: list[np.ndarray], folder: Path,
                push_constants: bytes | None = None) -> list[Written]:
    """Convert and run the model of ``ops``; what each result holds, what was left
    unwritten and what was written past it."""
    tools = find_toolchain()
    folder.mkdir(parents=True, exist_ok=True)
    dump = convert(model_text(ops, run=True), folder)
    sequence, resources = dump["model_sequence"], dump["resources"]
    results = [t for op in ops for t in op.results]
    formats = [op.attrs.get(f"output_{k}_vkformat") for op in ops for k in range(len(op.results))]
    scenario: list[dict] = [{"graph": {"uid": "graph", "src": "model.vgf"}}]
    bindings, outputs = [], []
    for kind, entries in (("input", sequence["inputs"]), ("output", sequence["outputs"])):
        for entry in entries:
            resource = resources[entry["mrt_index"]]
            uid = f"{kind}_{entry['index']}"
            shape = resource["shape"]
            elements = int(np.prod(shape))
            if kind == "input":
                data = np.ascontiguousarray(inputs[entry["index"]]).tobytes()
            else:
                data = bytes([SENTINEL]) * (elements * _texel(resource["vk_format"]))
            scenario.append(_resource(resource, uid, kind, data, folder))
            bindings.append({"id": entry["binding"], "set": 0, "resource_ref": uid})
            if kind == "output":
                outputs.append((entry["index"], resource))
    dispatch: dict = {"graph_ref": "graph", "bindings": bindings}
    if push_constants is not None:
        np.save(folder / "push.npy", np.frombuffer(push_constants, dtype=np.uint8))
        scenario.append({"raw_data": {"uid": "push", "src": "push.npy"}})
        scenario[0]["graph"]["push_constants_size"] = len(push_constants)
        dispatch["push_constants"] = [
            {"push_data_ref": "push", "shader_target": module["name"]}
            for module in dump["modules"] if module.get("shader_type") != "NONE"]
    (folder / "scenario.json").write_text(json.dumps(
        {"commands": [{"dispatch_graph": dispatch}], "resources": scenario}))
    (folder / "out").mkdir(exist_ok=True)
    env = {**os.environ, **tools.layer_environment(folder), "VK_ICD_FILENAMES": str(LAVAPIPE)}
    done = subprocess.run([tools.scenario_runner, "--scenario", "scenario.json", "--output",
                           "out"], cwd=folder, capture_output=True, text=True, timeout=300,
                          env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return [_read(folder, index, resource, results[index], formats[index])
            for index, resource in sorted(outputs, key=lambda item: item[0])]


def _kind(resource: dict) -> str:
    descriptor = resource["vk_descriptor_type"]
    return "tensor" if "TENSOR" in descriptor else "image" if "IMAGE" in descriptor \
        else "buffer"


def _texel(vkformat: str) -> int:
    from tosa_vkshader import vulkan

    info = vulkan.format_info(vkformat)
    assert info is not None
    return info.block_size


def _resource(resource: dict, uid: str, kind: str, data: bytes, folder: Path) -> dict:
    kind_of = _kind(resource)
    shape = resource["shape"]
    fmt = resource["vk_format"]
    access = "readonly" if kind == "input" else "readwrite"
    files = {"src": f"{uid}.in"}
    if kind == "output":
        files["dst"] = f"{uid}.out"
    if kind_of == "tensor":
        dtype = {1: np.int8, 2: np.float16, 4: np.float32}[_texel(fmt)] \
            if "FLOAT" in fmt else {1: np.int8, 2: np.int16, 4: np.int32}[_texel(fmt)]
        np.save(folder / f"{uid}.in.npy", np.frombuffer(data, dtype=dtype).reshape(shape))
        files = {k: f"{v}.npy" for k, v in files.items()}
        return {"tensor": {"uid": uid, "dims": shape, "format": fmt, "shader_access": access,
                           **files}}
    if kind_of == "image":
        height, width = (shape[1], shape[2]) if len(shape) == 4 else (shape[0], shape[1])
        _image_file(folder / f"{uid}.in.dds", data, width, height, fmt)
        files = {k: f"{v}.dds" for k, v in files.items()}
        # The runner gives a "readonly" image SAMPLED usage only and a "readwrite" one
        # STORAGE usage only (runtime/scenario.py measured it): lavapipe reads a storage
        # image created without STORAGE usage all the same, an NVIDIA GPU reads zeros.
        sampled = resource["vk_descriptor_type"].endswith("COMBINED_IMAGE_SAMPLER")
        return {"image": {"uid": uid, "dims": [1, width, height, 1], "format": fmt,
                          "shader_access": "readonly" if sampled and kind == "input"
                          else "readwrite", **files}}
    size = int(np.prod(shape)) * _texel(fmt)  # (a multi-component format: more than data)
    data = data + bytes(max(0, size - len(data)))
    np.save(folder / f"{uid}.in.npy", np.frombuffer(data, dtype=np.uint8))
    files = {k: f"{v}.npy" for k, v in files.items()}
    return {"buffer": {"uid": uid, "size": size, "shader_access": access, **files}}


def _read(folder: Path, index: int, resource: dict, result: str,
          vkformat: str | None) -> Written:
    dtype, shape = _dtype(result)
    elements = int(np.prod(shape))
    size = elements * dtype.itemsize
    kind = _kind(resource)
    path = folder / "out" / f"output_{index}.out.{'dds' if kind == 'image' else 'npy'}"
    if kind == "image":
        raw = path.read_bytes()[148:]  # after the DDS and DX10 headers
        data, after = raw[:size], b""
    else:
        raw = np.load(path).tobytes()
        # past the buffer the result itself would have had (for a multi-component format
        # that is more than its data)
        allocation = elements * _texel(vkformat) if vkformat else size
        data, after = raw[:size], raw[allocation:]
    values = np.frombuffer(data, dtype=dtype).reshape(shape)
    marks = np.frombuffer(data, dtype=np.uint8).reshape(elements, dtype.itemsize)
    untouched = np.all(marks == SENTINEL, axis=1)
    first = tuple(int(i) for i in np.unravel_index(int(np.argmax(untouched)), shape)) \
        if untouched.any() else None
    changed = np.flatnonzero(np.frombuffer(after, dtype=np.uint8) != SENTINEL)
    past = -(-(int(changed[-1]) + 1) // dtype.itemsize) if changed.size else 0
    return Written(values, int(untouched.sum()), first, past)
