"""`tosa-vkshader run` against the manual pipeline, on the same models, side by side.

    PYTHONPATH=src python bench/bench_run.py [--repeat 5] [--write-docs]
    PYTHONPATH=src python bench/bench_run.py --examples 100
    PYTHONPATH=src python bench/bench_run.py --unproven 7

With --examples N: one model (a 4,096-element float32 op) run on N sets of random inputs
three ways: `tosa_vkshader.run` each time (check, convert and run), one prepared model
(`tosa_vkshader.prepare`: checked and converted once) run N times, and the prepared model's
`run_many` (all N in one scenario-runner process); examples per second, each with the
write check.

With --unproven N: a correct op whose loads the static analysis cannot bound (a gather,
`y[i] = x[idx[i]]`), run N times each way, interleaved, as `tosa-vkshader run`: with
`--no-validate`, by default (the run turns the validation layer on by itself, after a
first start without it) and with `--validate` (the layer from the start).

For every model in examples/ (one custom op each, plus tosa.add in add_relu), interleaved:
  * manual   - what a user scripts by hand: a shell script running model-converter,
               vgf_dump and scenario-runner on a scenario and input files prepared
               beforehand (the very files `run --keep-workdir --no-write-check` wrote: one
               dispatch, no sentinels), emulation layers set up as `run` sets them up.
               This is the tools' own time.
  * cli      - `tosa-vkshader run MODEL -i ... -o OUT` as a fresh process, with the write
               check (the default): check (compile cache warm), convert, interface,
               inputs, sentinels, scenario, runner (two dispatches), results, findings.
  * api      - `tosa_vkshader.run(model, inputs)` in one long-lived Python process.
  * validate - `tosa-vkshader run ... --validate` (core and GPU-assisted validation).
  * python   - `python -c pass` as the command line starts it: the interpreter alone
               (with the site packages' .pth files), the floor of any Python
               command line's overhead.
Overhead = (ours - manual) / manual, from medians. The runner's own latency per op on
this device is the `manual` column.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, fields
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
sys.path.insert(0, str(SRC))

import numpy as np  # noqa: E402

import tosa_vkshader  # noqa: E402
from tosa_vkshader.runtime import run_model  # noqa: E402
from tosa_vkshader.runtime.toolchain import find_toolchain  # noqa: E402

EXAMPLES = ROOT / "examples"
MODELS = {  # inputs, push constants
    "add_sub_f32": (["a.npy", "b.npy"], None),
    "scale_i8_push": (["q.npy"], "push_constants.bin"),
    "tensor_add": (["lhs.npy", "rhs.npy"], None),
    "add_relu": (["a.npy", "b.npy"], None),
}
SECTION = "## Running ops (`run`)"
MANUAL = """#!/bin/sh
set -e
cd "$(dirname "$0")"
"{converter}" -i model.mlir -o model.vgf > /dev/null 2>&1
"{dump}" -i model.vgf -o dump.json > /dev/null 2>&1
VK_LAYER_PATH="{layer_path}" VK_INSTANCE_LAYERS="{layers}" \\
    "{runner}" --scenario scenario.json --output out > /dev/null 2>&1
"""


def prepare_manual(name: str, work: Path) -> Path:
    """A folder with the manual script and the exact inputs/scenario `run` writes."""
    inputs, push = MODELS[name]
    folder = EXAMPLES / name
    arrays = [np.load(folder / f) for f in inputs]
    data = (folder / push).read_bytes() if push else None
    result = run_model((folder / "model.mlir").read_text(), arrays, path=str(folder /
                       "model.mlir"), push_constants=data, keep_workdir=True,
                       write_check=False)
    assert result.workdir is not None
    target = work / name
    shutil.copytree(result.workdir, target)
    shutil.rmtree(result.workdir)
    tools = find_toolchain()
    env = tools.layer_environment(target)
    script = target / "manual.sh"
    script.write_text(MANUAL.format(converter=tools.model_converter, dump=tools.vgf_dump,
                                    runner=tools.scenario_runner,
                                    layer_path=env["VK_LAYER_PATH"],
                                    layers=env["VK_INSTANCE_LAYERS"]))
    script.chmod(0o755)
    return script


def timed(func) -> tuple[float, float]:
    """Wall time and CPU time (user + system, this process and its children)."""
    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    start, start_cpu = time.perf_counter(), cpu()
    func()
    return time.perf_counter() - start, cpu() - start_cpu


def cli_environment() -> dict[str, str]:
    """The environment of a command-line run: our sources first on the path, bytecode as
    an installed package has it (the warm-up run writes it)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_cli(name: str, out: Path, *options: str) -> None:
    inputs, push = MODELS[name]
    folder = EXAMPLES / name
    argv = [sys.executable, "-m", "tosa_vkshader", "run", str(folder / "model.mlir"),
            "-o", str(out), *options]
    for f in inputs:
        argv += ["-i", str(folder / f)]
    if push:
        argv += ["--push-constants", str(folder / push)]
    subprocess.run(argv, check=True, env=cli_environment(), stdout=subprocess.DEVNULL)


def run_interpreter() -> None:
    """The interpreter alone, as the command line starts it (`python -c pass`, the same
    environment, its site packages' .pth files included): what any Python program costs
    before its first line, the floor of a command line's overhead."""
    subprocess.run([sys.executable, "-c", "pass"], check=True, env=cli_environment())


def run_api(name: str) -> str | None:
    """The device it ran on."""
    inputs, push = MODELS[name]
    folder = EXAMPLES / name
    return tosa_vkshader.run(folder / "model.mlir", [np.load(folder / f) for f in inputs],
                             push_constants=(folder / push).read_bytes() if push else None
                             ).device


@dataclass(frozen=True, slots=True)
class Row:
    """One model's medians, in seconds: wall and CPU time of each way."""

    name: str
    manual: float
    cli: float
    api: float
    validate: float
    interpreter: float
    manual_cpu: float
    cli_cpu: float
    api_cpu: float

    @staticmethod
    def total(rows: list[Row]) -> Row:
        return Row("**all**", *(sum(getattr(row, f.name) for row in rows)
                                for f in fields(Row)[1:]))


def measure(repeat: int) -> tuple[list[Row], tuple[float, float], str]:
    """The rows, the machine's 1-minute load average before and after (the machine is
    shared: a busy neighbour shows there), and the device."""
    load_before = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in MODELS:
            script = prepare_manual(name, work)
            run_cli(name, work / "warm")  # fills the compile cache, writes bytecode
            manual, cli, api, validate, interpreter = [], [], [], [], []
            for _ in range(repeat):
                manual.append(timed(lambda s=script: subprocess.run([str(s)], check=True)))
                cli.append(timed(lambda n=name: run_cli(n, work / "out")))
                api.append(timed(lambda n=name: run_api(n)))
                validate.append(timed(lambda n=name: run_cli(n, work / "out", "--validate")))
                interpreter.append(timed(run_interpreter))

            def wall(runs: list[tuple[float, float]]) -> float:
                return statistics.median(t[0] for t in runs)

            def cpu(runs: list[tuple[float, float]]) -> float:
                return statistics.median(t[1] for t in runs)

            rows.append(Row(name, wall(manual), wall(cli), wall(api), wall(validate),
                            wall(interpreter), cpu(manual), cpu(cli), cpu(api)))
    return rows, (load_before, os.getloadavg()[0]), run_api(next(iter(MODELS))) or "?"


def table(rows: list[Row], load: tuple[float, float], device: str, repeat: int) -> str:
    def cells(manual: float, cli: float, api: float) -> str:
        return (f"{manual * 1000:.0f} ms | {cli * 1000:.0f} ms ({(cli - manual) / manual:+.0%}) "
                f"| {api * 1000:.0f} ms ({(api - manual) / manual:+.0%})")

    def ratio(manual: float, other: float) -> str:
        return f"{other * 1000:.0f} ms ({other / manual:.2f}x)"

    def share(manual: float, other: float) -> str:
        return f"{other * 1000:.0f} ms ({other / manual:.0%})"

    lines = [
        f"Median of {repeat} interleaved runs per model on {device} "
        f"(`python bench/bench_run.py --repeat {repeat}`, load average {load[0]:.2f} "
        f"before and {load[1]:.2f} after); in brackets the overhead over the manual "
        "pipeline (`run` with its write check, the default, against one plain dispatch), "
        "and the interpreter's own start as a share of the manual pipeline's time:",
        "",
        "| model | wall: manual (tools' own time) | `run` CLI | `tosa_vkshader.run` "
        "| CPU: manual | `run` CLI | `tosa_vkshader.run` | wall: `run --validate` "
        "| wall: `python -c pass` |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in [*rows, Row.total(rows)]:
        lines.append(f"| {row.name} | {cells(row.manual, row.cli, row.api)} | "
                     f"{cells(row.manual_cpu, row.cli_cpu, row.api_cpu)} | "
                     f"{ratio(row.manual, row.validate)} | "
                     f"{share(row.manual, row.interpreter)} |")
    return "\n".join(lines)


ADD_4096 = """#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
void main() { uint i = gl_GlobalInvocationID.x; c[i] = a[i] + b[i]; }
"""


def examples_per_second(count: int) -> str:
    """Examples per second of a 4,096-element op, three ways (see the module's doc)."""
    from tosa_vkshader.codegen import op_from_shader

    t = "tensor<4096xf32>"
    model = op_from_shader(ADD_4096, language="GLSL", workgroup_sizes=[64, 1, 1]).to_mlir(
        [t, t], [t])
    rng = np.random.default_rng(0)
    cases = [[rng.standard_normal(4096).astype(np.float32) for _ in range(2)]
             for _ in range(count)]

    def each_run() -> None:
        for inputs in cases:
            assert tosa_vkshader.run(model, inputs).ok

    def prepared_runs() -> None:
        with tosa_vkshader.prepare(model) as prepared:
            for inputs in cases:
                assert prepared.run(inputs).ok

    def run_many() -> None:
        with tosa_vkshader.prepare(model) as prepared:
            assert all(result.ok for result in prepared.run_many(cases))

    lines = [f"{count} examples of a 4,096-element float32 op on lavapipe, with the write "
             f"check (`python bench/bench_run.py --examples {count}`, load average "
             f"{os.getloadavg()[0]:.2f}):", "",
             "| way | wall | examples/s |", "| --- | --- | --- |"]
    for name, func in (("`tosa_vkshader.run` each time", each_run),
                       ("one `prepare`, `run` each time", prepared_runs),
                       ("one `prepare`, `run_many`", run_many)):
        wall, _ = timed(func)
        lines.append(f"| {name} | {wall:.2f} s | {count / wall:.0f} |")
    return "\n".join(lines)


GATHER = """#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) readonly buffer I { int idx[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = x[idx[i]]; }
"""


def unproven(repeat: int) -> str:
    """`run` on an op the analysis cannot prove in bounds, three ways (module doc)."""
    from tosa_vkshader.codegen import op_from_shader

    t, where = "tensor<4096xf32>", "tensor<4096xi32>"
    model = op_from_shader(GATHER, language="GLSL", workgroup_sizes=[64, 1, 1]).to_mlir(
        [t, where], [t])
    rng = np.random.default_rng(0)
    ways = {"`--no-validate`": ["--no-validate"], "default (the layer by itself)": [],
            "`--validate`": ["--validate"]}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "model.mlir").write_text(model)
        np.save(folder / "x.npy", rng.standard_normal(4096).astype(np.float32))
        np.save(folder / "i.npy", rng.integers(0, 4096, 4096).astype(np.int32))
        env = cli_environment()

        def run(options: list[str]) -> None:
            subprocess.run([sys.executable, "-m", "tosa_vkshader", "run",
                            str(folder / "model.mlir"), "-i", str(folder / "x.npy"), "-i",
                            str(folder / "i.npy"), "-o", str(folder / "out"), *options],
                           check=True, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)

        run([])  # fills the compile cache, writes bytecode
        load = os.getloadavg()[0]
        times: dict[str, list[float]] = {way: [] for way in ways}
        for _ in range(repeat):
            for way, options in ways.items():
                times[way].append(timed(lambda o=options: run(o))[0])
    lines = [f"A correct gather (`y[i] = x[idx[i]]`, 4,096 float32) whose loads the analysis "
             f"cannot bound: median of {repeat} interleaved `tosa-vkshader run`s on lavapipe "
             f"(`python bench/bench_run.py --unproven {repeat}`, load average "
             f"{load:.2f} before and {os.getloadavg()[0]:.2f} after):", "",
             "| `run` | wall |", "| --- | --- |"]
    for way in ways:
        lines.append(f"| {way} | {statistics.median(times[way]) * 1000:.0f} ms |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--write-docs", action="store_true",
                        help=f"replace the table under '{SECTION}' in docs/performance.md")
    parser.add_argument("--examples", type=int, metavar="N",
                        help="measure examples per second of a prepared model instead")
    parser.add_argument("--unproven", type=int, metavar="N",
                        help="measure an op the analysis cannot prove in bounds instead")
    args = parser.parse_args()
    if args.examples:
        print(examples_per_second(args.examples))
        return 0
    if args.unproven:
        print(unproven(args.unproven))
        return 0
    text = table(*measure(args.repeat), args.repeat)
    print(text)
    if args.write_docs:
        docs = ROOT / "docs" / "performance.md"
        current = docs.read_text(encoding="utf-8")
        start = current.find(SECTION)
        if start < 0:
            print(f"{docs}: no '{SECTION}' section", file=sys.stderr)
            return 1
        begin = current.find("Median of", start)
        end = current.find("\n\n", current.find("| **all**", begin))
        docs.write_text(current[:begin] + text + current[end:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
