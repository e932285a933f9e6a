"""Benchmark checking whole models: `tosa-vkshader check` against `tosa-opt` reading the
same TOSA MLIR file, over the generated family of bench/model_family.py (the shape of
issue #31, many small ops, several functions, mostly weights).

Each member is generated, parsed by tosa-opt once (it must be well formed), and checked
once to fill the cache (a hook's second run). Then, in turn, one `tosa-vkshader check`
process (start-up included, as a hook pays it), `tosa-opt` reading the file as a user runs
it (`tosa-opt model.mlir -o /dev/null`: the console command of tosa-tools, which parses and
verifies the model; the reference of issue #31 and of docs/performance.md), and the binary
behind that command alone; medians of --repeat runs each: wall, CPU (user + system) and
the peak resident memory of each process. With --in-process, where the time of our check
goes (reading, checking) in this process, once it has read and checked it a first time;
with --tosa, also `check` of the .tosa flatbuffer that `tosa-opt --tosa-serialize` makes
of each member.

    .venv/bin/python bench/bench_models.py [--repeat 9] [--only issue,...] [--markdown]
                                           [--in-process] [--tosa]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import model_family  # noqa: E402
from model_family import build  # noqa: E402  (tosa_opt)

BIN = Path(sys.executable).parent

RUNNER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(json.dumps([time.perf_counter() - start, usage.ru_utime + usage.ru_stime,
                  usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status)]))
"""


def timed(command: list[str]) -> tuple[float, float, int, int]:
    """Wall and CPU seconds, peak RSS in bytes and exit code of one process, started by a
    small runner so that the peak memory is the tool's own (a child forked from this
    script would start with its pages)."""
    done = subprocess.run([sys.executable, "-S", "-c", RUNNER, *command],
                          capture_output=True, text=True, check=True)
    wall, cpu, rss, code = json.loads(done.stdout)
    return wall, cpu, rss, code


def in_process(path: Path) -> tuple[float, float, int, int]:
    """Seconds to read the file into ops, seconds to check them, ops, diagnostics: in
    this process, after a first read and check (the modules imported, the shaders built
    and kept by the process)."""
    from tosa_vkshader import Options
    from tosa_vkshader.api import read_file
    from tosa_vkshader.check import check_sources

    check_sources([read_file(path, Options())], Options())
    start = time.perf_counter()
    source = read_file(path, Options())
    read = time.perf_counter() - start
    start = time.perf_counter()
    diagnostics = check_sources([source], Options())[0]
    return read, time.perf_counter() - start, len(source.ops), len(diagnostics)


def measure(path: Path, repeat: int, tosa: Path | None = None,
            ) -> dict[str, list[tuple[float, float, int, int]]]:
    commands = {"ours": [str(BIN / "tosa-vkshader"), "check", str(path)],
                "tosa-opt": [str(BIN / "tosa-opt"), str(path), "-o", os.devnull],
                "binary": [str(build.tosa_opt()), str(path), "-o", os.devnull]}
    if tosa is not None:
        commands["ours .tosa"] = [str(BIN / "tosa-vkshader"), "check", str(tosa)]
    subprocess.run(commands["ours"], stdout=subprocess.DEVNULL)  # fill the cache
    runs: dict[str, list[tuple[float, float, int, int]]] = {name: [] for name in commands}
    for turn in range(repeat):  # in turn, and which goes first alternates too
        for name in list(commands)[:: 1 if turn % 2 == 0 else -1]:
            runs[name].append(timed(commands[name]))
    return runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--only", help="comma-separated member names")
    parser.add_argument("--in-process", action="store_true",
                        help="also time reading and checking in this process")
    parser.add_argument("--tosa", action="store_true",
                        help="also check the .tosa flatbuffer of each member")
    parser.add_argument("--markdown", action="store_true", help="print a table for the docs")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else [s.name for s in model_family.FAMILY]
    rows = []
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            shape = model_family.member(name)
            path = Path(tmp) / f"{name}.mlir"
            path.write_text(model_family.generate(shape))
            model_family.check_parses(path)
            size = path.stat().st_size
            tosa = None
            if args.tosa:
                tosa = path.with_suffix(".tosa")
                subprocess.run([str(build.tosa_opt()), str(path), "--tosa-serialize",
                                f"--tosa-flatbuffer-filename={tosa}", "-o", os.devnull],
                               check=True)
            runs = measure(path, args.repeat, tosa)
            medians = {tool: (statistics.median(r[0] for r in rs),
                              statistics.median(r[1] for r in rs),
                              max(r[2] for r in rs), rs[0][3]) for tool, rs in runs.items()}
            ours, theirs, binary = medians["ours"], medians["tosa-opt"], medians["binary"]
            print(f"{name}: {size / 1e6:.1f} MB, {shape.functions} function(s), "
                  f"{shape.ordinary_ops} ordinary ops ({shape.weights} weights), "
                  f"{shape.custom_ops} custom ops ({shape.distinct_shaders} distinct modules)")
            for tool, (wall, cpu, rss, code) in medians.items():
                print(f"  {tool:<10} wall {wall:6.3f} s  CPU {cpu:6.3f} s  peak RSS "
                      f"{rss / 2**20:6.1f} MiB ({rss / size:4.2f}x the file)  exit {code}")
            print(f"  ratio ours / tosa-opt: wall {ours[0] / theirs[0]:.2f}, CPU "
                  f"{ours[1] / theirs[1]:.2f}; ours / the binary alone: wall "
                  f"{ours[0] / binary[0]:.2f}, CPU {ours[1] / binary[1]:.2f}")
            if args.in_process:
                read, check, ops, found = in_process(path)
                print(f"  in-process, warm: read {read * 1000:6.1f} ms, check "
                      f"{check * 1000:6.1f} ms ({ops} ops, {found} diagnostics)")
            rows.append((name, size, ours, theirs, binary))
    print(f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after; "
          f"{args.repeat} alternating runs each")
    if args.markdown:
        print()
        print("| member | size | ours, wall / CPU | tosa-opt, wall / CPU | ratio, wall / CPU "
              "| binary alone, wall / CPU | ratio to it | our peak RSS | tosa-opt's |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for name, size, ours, theirs, binary in rows:
            print(f"| {name} | {size / 1e6:.1f} MB | {ours[0]:.3f} / {ours[1]:.3f} s | "
                  f"{theirs[0]:.3f} / {theirs[1]:.3f} s | **{ours[0] / theirs[0]:.2f}** / "
                  f"{ours[1] / theirs[1]:.2f} | {binary[0]:.3f} / {binary[1]:.3f} s | "
                  f"{ours[0] / binary[0]:.2f} / {ours[1] / binary[1]:.2f} | "
                  f"{ours[2] / 2**20:.1f} MiB ({ours[2] / size:.2f}x) | "
                  f"{theirs[2] / 2**20:.1f} MiB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
