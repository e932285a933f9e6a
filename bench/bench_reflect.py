#!/usr/bin/env python3
"""In-process SPIR-V reflection vs ``spirv-cross --reflect``, side by side in one run.

    PYTHONPATH=src python bench/bench_reflect.py             # every fixture + 1,000 modules
    PYTHONPATH=src python bench/bench_reflect.py --markdown  # also print the docs table

For every module in fixtures/shaders/: the median time of read_module + reflect (what a
check does per shader) and the median time of one ``spirv-cross --reflect`` process (what
a user would otherwise run). Then 1,000 modules (the fixture set, cycled) reflected
in-process, against the same 1,000 spirv-cross runs. Targets: median <= 1 ms for 2-20 KB
modules, 1,000 modules <= 1.5 s.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tosa_vkshader.spirv import read_module, reflect

SHADERS = Path(__file__).resolve().parents[1] / "fixtures" / "shaders"
BAND = (2 * 1024, 20 * 1024)


def reflect_all(data: bytes) -> None:
    module, _ = read_module(data)
    for entry in module.entry_points:
        reflect(module, entry.name)


def time_in_process(data: bytes, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        reflect_all(data)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def time_spirv_cross(path: Path, repeat: int) -> float | None:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(["spirv-cross", str(path), "--reflect"], capture_output=True,
                              check=False)
        samples.append(time.perf_counter() - start)
        if done.returncode != 0 or b"exception" in done.stderr:
            return None  # e.g. SPV_ARM_tensors: this spirv-cross cannot read it
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="in-process runs per module")
    parser.add_argument("--cross-repeat", type=int, default=5,
                        help="spirv-cross runs per module")
    parser.add_argument("--count", type=int, default=1000, help="modules in the batch run")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    has_cross = shutil.which("spirv-cross") is not None

    modules = sorted(SHADERS.glob("*.spv"), key=lambda p: p.stat().st_size)
    rows = []
    for path in modules:
        data = path.read_bytes()
        ours = time_in_process(data, args.repeat)
        theirs = time_spirv_cross(path, args.cross_repeat) if has_cross else None
        rows.append((path.stem, len(data), ours, theirs))

    print(f"{'module':<28}{'bytes':>8}{'ours ms':>10}{'spirv-cross ms':>16}{'ratio':>9}")
    for name, size, ours, theirs in rows:
        cross = f"{theirs * 1e3:16.2f}" if theirs else f"{'cannot read':>16}"
        ratio = f"{theirs / ours:8.0f}x" if theirs else f"{'-':>9}"
        print(f"{name:<28}{size:>8}{ours * 1e3:10.3f}{cross}{ratio}")

    band = [r for r in rows if BAND[0] <= r[1] <= BAND[1]]
    band_ours = statistics.median(r[2] for r in band)
    both = [r for r in rows if r[3]]
    all_ours = statistics.median(r[2] for r in rows)
    print(f"\nmedian in-process, all {len(rows)} modules: {all_ours * 1e3:.3f} ms")
    print(f"median in-process, {len(band)} modules of 2-20 KB: {band_ours * 1e3:.3f} ms "
          f"(target <= 1 ms)")
    if both:
        ratio = statistics.median(r[3] / r[2] for r in both)
        cross_median = statistics.median(r[3] for r in both)
        print(f"median spirv-cross --reflect: {cross_median * 1e3:.2f} ms per module; "
              f"in-process is {ratio:.0f}x faster (median of per-module ratios)")

    batch = [modules[i % len(modules)].read_bytes() for i in range(args.count)]
    start = time.perf_counter()
    for data in batch:
        reflect_all(data)
    ours_batch = time.perf_counter() - start
    print(f"\n{args.count} modules in-process: {ours_batch:.3f} s (target <= 1.5 s)")
    if has_cross:
        readable = [modules[i % len(modules)] for i in range(args.count)]
        start = time.perf_counter()
        for path in readable:
            subprocess.run(["spirv-cross", str(path), "--reflect"], capture_output=True,
                           check=False)
        cross_batch = time.perf_counter() - start
        print(f"{args.count} spirv-cross --reflect processes: {cross_batch:.3f} s "
              f"({cross_batch / ours_batch:.0f}x the in-process time)")

    if args.markdown:
        print(f"\nMachine: {platform.machine()}, {platform.python_implementation()} "
              f"{platform.python_version()}, {platform.system()}\n")
        print("| module | bytes | in-process ms | spirv-cross ms | ratio |")
        print("|---|---:|---:|---:|---:|")
        for name, size, ours, theirs in rows:
            cross = f"{theirs * 1e3:.2f}" if theirs else "cannot read"
            ratio = f"{theirs / ours:.0f}x" if theirs else "-"
            print(f"| {name} | {size} | {ours * 1e3:.3f} | {cross} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
