"""The reference toolchain driven step by step, for what `tosa-vkshader run` deliberately
papers over: the VGF the converter writes (read back with vgf_dump), and the runner's own
verdict on an op `run` would refuse or repair first (HLSL, storage texel buffers, push
constants nobody supplies). Buffers of 32-bit elements only; tools found by the product's
own finder (tosa_vkshader.runtime.toolchain).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np

from tosa_vkshader.runtime.toolchain import find_toolchain

_DTYPES = {"VK_FORMAT_R32_SFLOAT": np.float32, "VK_FORMAT_R32_SINT": np.int32,
           "VK_FORMAT_R32_UINT": np.uint32}
LAVAPIPE = Path("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")


def convert(mlir: str, folder: Path) -> dict:
    """Convert ``mlir`` with the reference converter; the VGF as vgf_dump reads it back."""
    tools = find_toolchain()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.mlir").write_text(mlir)
    done = subprocess.run([tools.model_converter, "-i", "model.mlir", "-o", "model.vgf"],
                          cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    subprocess.run([tools.vgf_dump, "-i", "model.vgf", "-o", "dump.json"], cwd=folder,
                   check=True, capture_output=True, timeout=120)
    return json.loads((folder / "dump.json").read_text())


class RunnerRefused(AssertionError):
    """The scenario runner stopped with an error (its output is the message)."""


def run_raw(mlir: str, inputs: list[np.ndarray], folder: Path) -> list[np.ndarray]:
    """Convert and run ``mlir`` on lavapipe with no help: every model-interface buffer
    bound as the VGF says, no push constants, embedded code as it is."""
    tools = find_toolchain()
    dump = convert(mlir, folder)
    sequence, resources = dump["model_sequence"], dump["resources"]
    scenario_resources: list[dict] = [{"graph": {"uid": "graph", "src": "model.vgf"}}]
    bindings, outputs = [], []
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
    scenario = {"commands": [{"dispatch_graph": {"graph_ref": "graph", "bindings": bindings}}],
                "resources": scenario_resources}
    (folder / "scenario.json").write_text(json.dumps(scenario))
    (folder / "out").mkdir(exist_ok=True)
    env = {**os.environ, **tools.layer_environment(folder), "VK_ICD_FILENAMES": str(LAVAPIPE)}
    done = subprocess.run([tools.scenario_runner, "--scenario", "scenario.json", "--output",
                           "out"], cwd=folder, capture_output=True, text=True, timeout=300,
                          env=env)
    if done.returncode != 0:
        raise RunnerRefused(done.stdout + done.stderr)
    results = []
    for uid, dtype, elements in outputs:
        raw = np.load(folder / "out" / f"{uid}.npy")
        data = raw.view(np.uint8).tobytes()[:elements * np.dtype(dtype).itemsize]
        results.append(np.frombuffer(data, dtype=dtype))
    return results


def stand_in_runner(tmp_path: Path, monkeypatch, body: str) -> None:
    """A shell script standing in for scenario-runner (``body`` is what it does), found by
    the product through TOSA_VKSHADER_SCENARIO_RUNNER: a crash, a hang, a bad exit."""
    script = tmp_path / "scenario-runner"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    monkeypatch.setenv("TOSA_VKSHADER_SCENARIO_RUNNER", str(script))
