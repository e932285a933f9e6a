"""The reference toolchain (Arm ML SDK 0.11.0 wheels + Mesa lavapipe), driven directly, so
tests can show what the real converter writes and what the real runtime computes.

Only buffer resources are handled (enough to demonstrate the runtime-truth rules); the
product's own runner is ``tosa-vkshader run``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

import numpy as np
import pytest

SITE = Path(sysconfig.get_paths()["purelib"])
CONVERTER = SITE / "model_converter" / "binaries" / "bin" / "model-converter"
VGF_DUMP = SITE / "vgf_lib" / "binaries" / "bin" / "vgf_dump"
RUNNER = SITE / "scenario_runner" / "binaries" / "bin" / "scenario-runner"
LAYERS = SITE / "emulation_layer" / "deploy"
LAVAPIPE = Path("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")

needs_converter = pytest.mark.skipif(
    not (CONVERTER.is_file() and VGF_DUMP.is_file()),
    reason="the reference converter (pip install 'tosa-vkshader[run]') is not installed")
needs_runtime = pytest.mark.skipif(
    not (CONVERTER.is_file() and RUNNER.is_file() and LAVAPIPE.is_file()),
    reason="the reference runtime (the [run] extra and Debian's mesa-vulkan-drivers) is "
           "not installed")

_DTYPES = {"VK_FORMAT_R32_SFLOAT": np.float32, "VK_FORMAT_R32_SINT": np.int32,
           "VK_FORMAT_R32_UINT": np.uint32}


def convert(mlir: str, folder: Path) -> dict:
    """Convert ``mlir`` with the reference converter; the VGF read back by vgf_dump."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.mlir").write_text(mlir)
    done = subprocess.run([str(CONVERTER), "-i", "model.mlir", "-o", "model.vgf"],
                          cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    subprocess.run([str(VGF_DUMP), "-i", "model.vgf", "-o", "dump.json"], cwd=folder,
                   check=True, capture_output=True, timeout=120)
    return json.loads((folder / "dump.json").read_text())


def _environment(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    layer_dirs = []
    for name in ("Graph", "Tensor"):  # the graph layer's folder first
        manifest = json.loads((LAYERS / "share" / "vulkan" / "explicit_layer.d"
                               / f"VkLayer_{name}.json").read_text())
        manifest["layer"]["library_path"] = str(LAYERS / "lib" / f"libVkLayer_{name}.so")
        layer_dir = folder / f"layer_{name}"
        layer_dir.mkdir(exist_ok=True)
        (layer_dir / f"VkLayer_{name}.json").write_text(json.dumps(manifest))
        layer_dirs.append(str(layer_dir))
    env.update(VK_LAYER_PATH=":".join(layer_dirs), VK_ICD_FILENAMES=str(LAVAPIPE),
               VK_INSTANCE_LAYERS="VK_LAYER_ML_Graph_Emulation:VK_LAYER_ML_Tensor_Emulation")
    return env


class RunFailed(AssertionError):
    """The scenario runner refused the op (its ``ERROR:`` lines are the message)."""


def run(mlir: str, inputs: list[np.ndarray], folder: Path,
        push_constants: bytes | None = None) -> list[np.ndarray]:
    """Convert and run ``mlir`` on lavapipe; the outputs in the VGF's output order."""
    dump = convert(mlir, folder)
    sequence = dump["model_sequence"]
    resources = dump["resources"]
    scenario_resources: list[dict] = [{"graph": {"uid": "graph", "src": "model.vgf"}}]
    bindings = []
    outputs = []
    for kind, entries in (("input", sequence["inputs"]), ("output", sequence["outputs"])):
        for entry in entries:
            resource = resources[entry["mrt_index"]]
            dtype = _DTYPES[resource["vk_format"]]
            elements = int(np.prod(resource["shape"]))
            uid = f"{kind}_{entry['index']}"
            buffer = {"uid": uid, "size": elements * np.dtype(dtype).itemsize}
            if kind == "input":
                np.save(folder / f"{uid}.npy",
                        np.ascontiguousarray(inputs[entry["index"]], dtype=dtype))
                buffer.update(shader_access="readonly", src=f"{uid}.npy")
            else:
                buffer.update(shader_access="writeonly", dst=f"{uid}.npy")
                outputs.append((uid, dtype, elements))
            scenario_resources.append({"buffer": buffer})
            bindings.append({"id": entry["binding"], "set": 0, "resource_ref": uid})
    dispatch: dict = {"graph_ref": "graph", "bindings": bindings}
    if push_constants is not None:
        np.save(folder / "pc.npy", np.frombuffer(push_constants, dtype=np.uint8))
        scenario_resources.append({"raw_data": {"uid": "pc", "src": "pc.npy"}})
        scenario_resources[0]["graph"]["push_constants_size"] = len(push_constants)
        dispatch["push_constants"] = [
            {"push_data_ref": "pc", "shader_target": module["name"]}
            for module in dump["modules"] if module["type"] == "COMPUTE"]
    scenario = {"commands": [{"dispatch_graph": dispatch}], "resources": scenario_resources}
    (folder / "scenario.json").write_text(json.dumps(scenario))
    out = folder / "out"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    done = subprocess.run([str(RUNNER), "--scenario", "scenario.json", "--output", "out"],
                          cwd=folder, capture_output=True, text=True, timeout=300,
                          env=_environment(folder))
    if done.returncode != 0:
        errors = [line for line in (done.stdout + done.stderr).splitlines() if "ERROR" in line]
        raise RunFailed("\n".join(errors) or done.stdout + done.stderr)
    results = []
    for uid, dtype, elements in outputs:
        raw = np.load(folder / "out" / f"{uid}.npy") if (folder / "out" / f"{uid}.npy").exists() \
            else np.load(folder / f"{uid}.npy")
        data = raw.view(np.uint8).tobytes()[:elements * np.dtype(dtype).itemsize]
        results.append(np.frombuffer(data, dtype=dtype))
    return results
