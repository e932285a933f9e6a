"""Benchmark `tosa-vkshader check` against check-jsonschema with the reference schema.

Both tools check the same 1,000 generated attribute files, side by side in one run,
each in its own process (start-up included, as a user or a hook would pay it).

    .venv/bin/python bench/bench_check.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from generate_corpus import corpus_objects, write_corpus  # noqa: E402

REFERENCE_SCHEMA = Path(os.environ.get(
    "TOSA_VKSHADER_REFERENCE_SCHEMA",
    ROOT.parent / "shared" / "reference" / "arm-model-converter-vkshader-attributes.schema.json"))
BIN = Path(sys.executable).parent


def timed(command: list[str]) -> tuple[float, float, int]:
    """Wall seconds, peak RSS in MiB, exit code of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = [str(p) for p in write_corpus(Path(tmp) / "corpus", args.files)]
        tools = {
            "tosa-vkshader check": [str(BIN / "tosa-vkshader"), "check", *paths],
            "check-jsonschema (reference schema)": [
                str(BIN / "check-jsonschema"), "--schemafile", str(REFERENCE_SCHEMA), *paths],
        }
        results: dict[str, list[tuple[float, float, int]]] = {name: [] for name in tools}
        for _ in range(args.repeat):  # interleaved, so both see the same machine state
            for name, command in tools.items():
                results[name].append(timed(command))
    print(f"{args.files} attribute files, {args.repeat} runs each, median wall / peak RSS:")
    medians = {}
    for name, runs in results.items():
        wall = statistics.median(r[0] for r in runs)
        rss = max(r[1] for r in runs)
        medians[name] = wall
        print(f"  {name:<38} {wall:6.3f} s  {rss:6.1f} MiB  (exit {runs[0][2]})")
    ours, theirs = medians["tosa-vkshader check"], medians["check-jsonschema (reference schema)"]
    print(f"  ratio ours / check-jsonschema: {ours / theirs:.2f} (target <= 0.50)")

    from tosa_vkshader import validate

    objects = corpus_objects(10_000)
    rates = []
    for _ in range(3):
        start = time.perf_counter()
        for obj in objects:
            validate(obj)
        rates.append(len(objects) / (time.perf_counter() - start))
    texts = [__import__("json").dumps(o) for o in objects]
    start = time.perf_counter()
    for text in texts:
        validate(text)
    text_rate = len(texts) / (time.perf_counter() - start)
    print(f"  in-process validate(dict): {statistics.median(rates):,.0f} documents/s "
          f"(target >= 10,000)")
    print(f"  in-process validate(json text): {text_rate:,.0f} documents/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
