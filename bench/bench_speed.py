"""Side by side: `tosa-vkshader check` against what a user would otherwise run on the
same files, in the same run (issue #17's four measurements).

(a) 1,000 attribute files, half GLSL ops (the shaders of fixtures/shaders/ with their
    valid attributes, repeated), half JSON-only (bench/generate_corpus.py), against
    check-jsonschema with the reference converter's schema; also the JSON-only half alone.
(b) 200 ops with embedded base64 SPIR-V (21 distinct shaders), against the glue a careful
    user runs: check-jsonschema over all files, then per file a base64 decode, spirv-val
    and spirv-cross --reflect.
(c) a 25 MB TOSA MLIR model, 100 Vulkan shader custom ops among 2,000 ordinary ops
    (weights inline as hex constants, as tosa-opt prints them), against `tosa-opt` merely
    reading it (the console command of tosa-tools, and the binary behind it).
(d) warm (cache filled by an earlier run) against cold (empty cache) for each of ours,
    and our peak memory on (c). On (a), warm runs answer the JSON-only files from the
    reports `check` kept of them (result_cache.py); "every file edited" changes each
    file's bytes before each run, so only the compile cache applies.

Every measurement is one process per tool, start-up included, interleaved so that all
tools see the same machine; medians of --repeat runs.

    .venv/bin/python bench/bench_speed.py [--repeat 7] [--only a,b,c]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "fixtures" / "models"))
import build  # noqa: E402  (mlir_string, tosa_opt)
from generate_corpus import attribute_object  # noqa: E402

BIN = Path(sys.executable).parent
REFERENCE_SCHEMA = Path(os.environ.get(
    "TOSA_VKSHADER_REFERENCE_SCHEMA",
    ROOT.parent / "shared" / "reference" / "arm-model-converter-vkshader-attributes.schema.json"))
SHADERS = ROOT / "fixtures" / "shaders"
VALID = ROOT / "fixtures" / "spirv" / "valid"
TARGETS = {"a": 0.5, "a-json": 0.3, "b": 0.15, "c": 1.0}
MEMORY_TARGET_MIB = 150


# -- inputs ---------------------------------------------------------------------------------

def glsl_ops() -> list[dict]:
    """Valid GLSL ops: each fixture shader's source with the attributes of its SPIR-V."""
    ops = []
    for attrs_path in sorted(VALID.glob("*.json")):
        source = SHADERS / f"{attrs_path.stem}.comp"
        if attrs_path.name == "expected.json" or not source.is_file():
            continue
        attrs = json.loads(attrs_path.read_text())
        attrs.update(shader_language="GLSL", shader_code=source.read_text())
        ops.append(attrs)
    return ops


def spirv_ops() -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(VALID.glob("*.json"))
            if p.name != "expected.json"]


def write_files(folder: Path, objects: list[dict]) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, attrs in enumerate(objects):
        path = folder / f"op_{number:04d}.json"
        path.write_text(json.dumps(attrs, indent=2))
        paths.append(str(path))
    return paths


def corpus_a(folder: Path, files: int = 1000) -> tuple[list[str], list[str]]:
    """(all files, the JSON-only half)."""
    rng = random.Random(17)
    shaders = glsl_ops()
    json_only = [attribute_object(rng, n) for n in range(files // 2)]
    glsl = [dict(shaders[n % len(shaders)]) for n in range(files - files // 2)]
    for n, attrs in enumerate(glsl):  # a few mistakes, like the JSON-only half
        if n % 10 == 9:
            attrs["input_01_binding"] = attrs.pop("input_0_binding", 0)
    mixed = [op for pair in zip(json_only, glsl, strict=True) for op in pair]
    paths = write_files(folder, mixed)
    return paths, paths[0::2]


def corpus_b(folder: Path, files: int = 200, distinct: int = 21) -> list[str]:
    ops = spirv_ops()[:distinct]
    return write_files(folder, [ops[n % len(ops)] for n in range(files)])


TENSOR = "tensor<1x64x64x8xf32>"


# f32 buffer shaders of fixtures/shaders/, whose attributes fit f32 operands and results
MODEL_SHADERS = ("copy_f32", "helper_functions", "buffer_array", "conv2d_large",
                 "matmul_tiled", "layernorm", "attention_debug", "hlsl_copy", "scale_bias_push",
                 "hlsl_push")


def model_c(path: Path, ordinary: int = 2000, customs: int = 100,
            megabytes: float = 25.0) -> None:
    """A chain of ordinary TOSA ops with weights inline, a custom op every 20 ops; one
    custom op in ten has a mistake, so diagnostics are located too."""
    ops = [json.loads((VALID / f"{name}.json").read_text()) for name in MODEL_SHADERS]
    consts = ordinary // 10
    per_const = int(megabytes * 1e6 / consts) // 2  # bytes of weight data per constant
    rng = random.Random(5)
    lines = ["module {", f"  func.func @main(%v0: {TENSOR}) -> {TENSOR} {{"]
    value, custom = 0, 0
    for step in range(ordinary):
        old, new = f"%v{value}", f"%v{value + 1}"
        if step % 10 == 0:
            weights = rng.randbytes(per_const).hex().upper()
            elements = per_const // 4
            lines.append(f"    %w{step} = \"tosa.const\"() <{{values = dense<\"0x{weights}\"> : "
                         f"tensor<{elements}xf32>}}> : () -> tensor<{elements}xf32>")
            continue
        kind = step % 4
        if kind == 0:
            lines.append(f"    {new} = tosa.sigmoid {old} : ({TENSOR}) -> {TENSOR}")
        elif kind == 1:
            lines.append(f"    {new} = tosa.tanh {old} : ({TENSOR}) -> {TENSOR}")
        elif kind == 2:
            lines.append(f"    {new} = tosa.abs {old} : ({TENSOR}) -> {TENSOR}")
        else:
            lines.append(f"    {new} = tosa.clamp {old} {{max_val = 6.000000e+00 : f32, "
                         f"min_val = 0.000000e+00 : f32}} : ({TENSOR}) -> {TENSOR}")
        value += 1
        if step % (ordinary // customs) == ordinary // customs - 1 and custom < customs:
            attrs = dict(ops[custom % len(ops)])
            if custom % 10 == 9:
                attrs["input_01_binding"] = attrs.pop("input_0_binding")
            inputs = sum(1 for k in attrs if k.startswith("input_") and k.endswith("_vkformat"))
            operands = ", ".join([f"%v{value}"] * max(inputs, 1))
            types = ", ".join([TENSOR] * max(inputs, 1))
            lines.append(
                f"    %v{value + 1} = tosa.custom {operands} {{domain_name = "
                f"\"com.arm.VulkanCustomShader\", operator_name = \"kernel_{custom}\", "
                f"implementation_attrs = {build.mlir_string(json.dumps(attrs))}}} : "
                f"({types}) -> {TENSOR}")
            value += 1
            custom += 1
    lines += [f"    return %v{value} : {TENSOR}", "  }", "}"]
    path.write_text("\n".join(lines) + "\n")


GLUE = '''\
"""What a careful user runs without tosa-vkshader: schema check, then per file decode the
SPIR-V, validate it and reflect it."""
import base64, json, subprocess, sys, tempfile, pathlib
schema, spirv_val, files = sys.argv[1], sys.argv[2], sys.argv[3:]
status = subprocess.run(["check-jsonschema", "--schemafile", schema, *files],
                        stdout=subprocess.DEVNULL).returncode
with tempfile.TemporaryDirectory() as tmp:
    spv = pathlib.Path(tmp) / "op.spv"
    for name in files:
        attrs = json.loads(pathlib.Path(name).read_text())
        spv.write_bytes(base64.b64decode(attrs["shader_code"], validate=True))
        status |= subprocess.run([spirv_val, "--target-env", "vulkan1.3", str(spv)],
                                 stdout=subprocess.DEVNULL).returncode
        status |= subprocess.run(["spirv-cross", "--reflect", str(spv)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
sys.exit(1 if status else 0)
'''


# -- measuring --------------------------------------------------------------------------------

RUNNER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(json.dumps([time.perf_counter() - start, usage.ru_maxrss / 1024,
                  os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime]))
"""


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, int, float]:
    """Wall seconds, peak RSS in MiB, exit code and CPU seconds (user + system, children
    included) of one process. A small runner process starts it, so that the peak memory is
    the tool's own, not this script's (a forked child starts with its parent's pages)."""
    done = subprocess.run([sys.executable, "-S", "-c", RUNNER, *command], env=env,
                          capture_output=True, text=True, check=True)
    wall, rss, code, cpu = json.loads(done.stdout)
    return wall, rss, code, cpu


def ours(*args: str) -> list[str]:
    return [str(BIN / "tosa-vkshader"), "check", *args]


def measure(tools: dict[str, tuple[list[str], Callable[[], dict[str, str]]]],
            repeat: int) -> dict[str, tuple[float, float, int, float]]:
    """Median wall, max peak RSS, the first exit code and median CPU of each tool,
    interleaved."""
    runs: dict[str, list[tuple[float, float, int, float]]] = {name: [] for name in tools}
    for _ in range(repeat):
        for name, (command, env) in tools.items():
            runs[name].append(timed(command, env()))
    return {name: (statistics.median(r[0] for r in rs), max(r[1] for r in rs), rs[0][2],
                   statistics.median(r[3] for r in rs))
            for name, rs in runs.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", default="a,b,c")
    args = parser.parse_args()
    wanted = set(args.only.split(","))
    from tosa_vkshader.spirv.validate import find_spirv_val

    spirv_val = find_spirv_val() or "spirv-val"
    ratios: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        warm_dir = tmp / "warm-cache"
        cold_dirs = iter(range(10**6))

        def warm() -> dict[str, str]:
            return {**os.environ, "TOSA_VKSHADER_CACHE_DIR": str(warm_dir)}

        def cold() -> dict[str, str]:
            fresh = tmp / f"cold-cache-{next(cold_dirs)}"
            shutil.rmtree(fresh, ignore_errors=True)
            return {**os.environ, "TOSA_VKSHADER_CACHE_DIR": str(fresh)}

        jsonschema = [str(BIN / "check-jsonschema"), "--schemafile", str(REFERENCE_SCHEMA)]
        sections = []
        if "a" in wanted:
            files, json_only = corpus_a(tmp / "a")
            subprocess.run(ours(*files), env=warm(), stdout=subprocess.DEVNULL)  # fill cache
            edits = iter(range(1, 10**6))

            def every_file_edited() -> dict[str, str]:
                """Each file's bytes changed (trailing spaces) since the last run: no
                report kept by `check` applies, the compile cache still does."""
                spaces = b" " * next(edits)
                for name in files:
                    path = Path(name)
                    path.write_bytes(path.read_bytes().rstrip(b" ") + spaces)
                return warm()

            sections.append(("a", f"(a) {len(files)} attribute files, half GLSL, half JSON-only",
                             {"ours (warm cache)": (ours(*files), warm),
                              "ours (warm, every file edited)": (ours(*files),
                                                                 every_file_edited),
                              "ours (cold cache)": (ours(*files), cold),
                              "check-jsonschema": ([*jsonschema, *files], warm),
                              "ours, JSON-only half": (ours(*json_only), warm),
                              "check-jsonschema, JSON-only half": ([*jsonschema, *json_only],
                                                                   warm)}))
        if "b" in wanted:
            files = corpus_b(tmp / "b")
            glue = tmp / "glue.py"
            glue.write_text(GLUE)
            subprocess.run(ours(*files), env=warm(), stdout=subprocess.DEVNULL)
            path_env = lambda: {**warm(), "PATH": f"{BIN}:{os.environ['PATH']}"}  # noqa: E731
            sections.append(("b", f"(b) {len(files)} ops with embedded SPIR-V (21 distinct)",
                             {"ours (warm cache)": (ours(*files), warm),
                              "ours (cold cache)": (ours(*files), cold),
                              "glue": ([sys.executable, str(glue), str(REFERENCE_SCHEMA),
                                        spirv_val, *files], path_env)}))
        if "c" in wanted:
            model = tmp / "model.mlir"
            model_c(model)
            subprocess.run(ours(str(model)), env=warm(), stdout=subprocess.DEVNULL)
            sections.append(("c", f"(c) {model.stat().st_size / 1e6:.1f} MB TOSA MLIR, 100 "
                                  "custom ops among 2,000 ordinary ops",
                             {"ours (warm cache)": (ours(str(model)), warm),
                              "ours (cold cache)": (ours(str(model)), cold),
                              "tosa-opt (console command)": (
                                  [str(BIN / "tosa-opt"), str(model), "-o", os.devnull], warm),
                              "tosa-opt (binary)": (
                                  [str(build.tosa_opt()), str(model), "-o", os.devnull],
                                  warm)}))
        for key, title, tools in sections:
            results = measure(tools, args.repeat)
            print(f"{title}: median of {args.repeat}, wall / CPU / peak RSS / exit")
            for name, (wall, rss, code, cpu) in results.items():
                print(f"  {name:<36} {wall:7.3f} s  {cpu:7.3f} s  {rss:7.1f} MiB  exit {code}")
            warm_s, cold_s = results["ours (warm cache)"][0], results["ours (cold cache)"][0]
            other = {"a": "check-jsonschema", "b": "glue", "c": "tosa-opt (console command)"}
            ratios[key] = warm_s / results[other[key]][0]
            cpu_ratio = results["ours (warm cache)"][3] / results[other[key]][3]
            print(f"  ratio ours (warm) / {other[key]}: wall {ratios[key]:.2f}, CPU "
                  f"{cpu_ratio:.2f} (target <= {TARGETS[key]}); cold: wall "
                  f"{cold_s / results[other[key]][0]:.2f}; warm/cold wall {warm_s / cold_s:.2f}")
            if key == "a":
                half, theirs = results["ours, JSON-only half"], \
                    results["check-jsonschema, JSON-only half"]
                ratios["a-json"] = half[0] / theirs[0]
                print(f"  ratio JSON-only half: wall {ratios['a-json']:.2f}, CPU "
                      f"{half[3] / theirs[3]:.2f} (target <= {TARGETS['a-json']})")
            if key == "c":
                ratio_bin = warm_s / results["tosa-opt (binary)"][0]
                rss = max(results["ours (warm cache)"][1], results["ours (cold cache)"][1])
                print(f"  ratio ours (warm) / tosa-opt binary: {ratio_bin:.2f}; our peak "
                      f"memory {rss:.1f} MiB (target <= {MEMORY_TARGET_MIB})")
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
