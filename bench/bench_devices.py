"""`check --target-device` against `check` on the same 200 ops (issue #28: within 1.2x).

200 ops with embedded SPIR-V (the valid fixtures of fixtures/spirv/valid, repeated) and
200 GLSL ops (the fixture shaders with their attributes), each checked with no target, one
shipped target (roadmap-2024) and three (android-15, roadmap-2024,
mali-valhall-approximate; the Android one builds on another shipped profile, so its
dependency is resolved too). One process per run, start-up included, the compile cache
warm, runs interleaved so every variant sees the same machine; medians of --repeat runs,
of the wall time and of the CPU time (user + system, of the process and the workers it
forks: the steadier measure on a shared machine).

    .venv/bin/python bench/bench_devices.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_speed import glsl_ops, spirv_ops, write_files  # noqa: E402

BIN = Path(sys.executable).parent
TARGET_RATIO = 1.2
VARIANTS = {
    "no target": [],
    "1 target": ["--target-device", "roadmap-2024"],
    "3 targets": ["--target-device", "android-15", "--target-device", "roadmap-2024",
                  "--target-device", "mali-valhall-approximate"],
}


def corpus(folder: Path, ops: list[dict], count: int = 200) -> Path:
    write_files(folder, [ops[i % len(ops)] for i in range(count)])
    return folder


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(argv: list[str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one run."""
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):  # findings are fine; a usage error is not
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr}")
    return elapsed, _children_cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        for label, ops in (("200 SPIR-V ops", spirv_ops()), ("200 GLSL ops", glsl_ops())):
            folder = corpus(base / label.replace(" ", "-"), ops)
            runs: dict[str, list[tuple[float, float]]] = {name: [] for name in VARIANTS}
            for extra in VARIANTS.values():  # fill the compile cache
                timed([str(BIN / "tosa-vkshader"), "check", *extra, str(folder)], base)
            for _ in range(args.repeat):
                for name, extra in VARIANTS.items():
                    runs[name].append(timed([str(BIN / "tosa-vkshader"), "check", *extra,
                                             str(folder)], base))
            wall = {name: statistics.median(w for w, _ in got) for name, got in runs.items()}
            cpu = {name: statistics.median(c for _, c in got) for name, got in runs.items()}
            print(f"{label}: no target {wall['no target']:.3f} s wall, "
                  f"{cpu['no target']:.3f} s CPU")
            for name in ("1 target", "3 targets"):
                ratios = (wall[name] / wall["no target"], cpu[name] / cpu["no target"])
                failed |= min(ratios) > TARGET_RATIO
                print(f"  {name}: {wall[name]:.3f} s wall (ratio {ratios[0]:.2f}), "
                      f"{cpu[name]:.3f} s CPU (ratio {ratios[1]:.2f}); target <= "
                      f"{TARGET_RATIO}: {'met' if min(ratios) <= TARGET_RATIO else 'NOT met'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
