"""The full differential run (``scripts/differential``): every case against the reference
model-converter and our ``check``. Prints looser cases, unlisted stricter cases (as table
rows to review and paste into ``stricter.md``) and stale table rows; exits 1 when any.

    python tests/differential/run.py [--sample] [--workers N] [--filter TEXT]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import all_cases, sample  # noqa: E402
from compare import compare, our_verdicts, read_table  # noqa: E402
from oracle import converter, judge_all  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", action="store_true",
                        help="only the bounded sample the normal test suite runs")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--filter", default="", help="only cases whose id contains TEXT")
    args = parser.parse_args(argv)
    if converter() is None:
        print("model-converter not installed (pip install 'tosa-vkshader[run]')",
              file=sys.stderr)
        return 2
    cases = sample() if args.sample else all_cases()
    cases = [c for c in cases if args.filter in c.id]
    started = time.monotonic()
    reference = judge_all(cases, args.workers)
    converted = time.monotonic()
    ours = our_verdicts(cases)
    checked = time.monotonic()
    outcome = compare(cases, reference, ours, read_table())
    for case_id, verdict in outcome.looser:
        print(f"LOOSER  {case_id}: converter {verdict.status}: {verdict.reason}")
    for case_id, us in outcome.stricter_unlisted:
        print(f"| `{case_id}` | {', '.join(us.errors)} | ? | {reference[case_id].status} |")
    for case_id in outcome.listed_not_stricter:
        print(f"STALE   {case_id}: listed in stricter.md but we now agree")
    accepted = sum(1 for v in reference.values() if v.ok)
    print(f"{len(cases)} cases: converter accepts {accepted}, rejects or breaks "
          f"{len(cases) - accepted}; agree {len(outcome.agree)}, stricter (listed) "
          f"{len(outcome.stricter_listed)}, stricter (unlisted) "
          f"{len(outcome.stricter_unlisted)}, looser {len(outcome.looser)}; "
          f"converter {converted - started:.1f} s, check {checked - converted:.1f} s",
          file=sys.stderr)
    return 1 if outcome.looser or outcome.stricter_unlisted else 0


if __name__ == "__main__":
    sys.exit(main())
