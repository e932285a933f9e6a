"""Start-up side by side: what a shell prompt or a commit hook pays on every call.

`tosa-vkshader --version` against `check-jsonschema --version`, and `tosa-vkshader check`
of one attribute file against check-jsonschema with the reference converter's schema on
the same file, each a process of its own, interleaved, medians of --repeat runs. The
budget: ours at most half of check-jsonschema's (docs/performance.md). This benchmark,
not a test that forbids imports, is what keeps start-up honest; `-X importtime` shows
where ours goes.

    .venv/bin/python bench/bench_startup.py [--repeat 21] [--imports]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_check import BIN, REFERENCE_SCHEMA  # noqa: E402
from generate_corpus import write_corpus  # noqa: E402

TARGET = 0.5


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - start


def imports(command: list[str], top: int = 12) -> str:
    """The slowest imports of one run of ``command`` (cumulative microseconds)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *command], text=True,
                          capture_output=True, check=False)
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "cumulative" not in line:
            _self, cumulative, name = (part.strip() for part in
                                       line.removeprefix("import time:").split("|"))
            rows.append((int(cumulative), name))
    rows.sort(reverse=True)
    return "\n".join(f"    {us / 1000:7.1f} ms  {name}" for us, name in rows[:top])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--imports", action="store_true",
                        help="also list the slowest imports of our one-file check")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        [path] = [str(p) for p in write_corpus(Path(tmp) / "corpus", 1)]
        pairs = {
            "--version": ([str(BIN / "tosa-vkshader"), "--version"],
                          [str(BIN / "check-jsonschema"), "--version"]),
            "one-file check": ([str(BIN / "tosa-vkshader"), "check", path],
                               [str(BIN / "check-jsonschema"), "--schemafile",
                                str(REFERENCE_SCHEMA), path]),
        }
        times: dict[tuple[str, int], list[float]] = {}
        for _ in range(args.repeat):  # interleaved, so both see the same machine state
            for name, commands in pairs.items():
                for side, command in enumerate(commands):
                    times.setdefault((name, side), []).append(wall(command))
        print(f"start-up, median wall of {args.repeat} runs each:")
        met = True
        for name in pairs:
            ours, theirs = (statistics.median(times[(name, side)]) for side in (0, 1))
            ratio = ours / theirs
            met = met and ratio <= TARGET
            print(f"  {name:<15} tosa-vkshader {ours * 1000:6.1f} ms   check-jsonschema "
                  f"{theirs * 1000:6.1f} ms   ratio {ratio:.2f} (target <= {TARGET})")
        if args.imports:
            print("  slowest imports of our one-file check (cumulative):")
            print(imports(["-m", "tosa_vkshader", "check", path]))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
