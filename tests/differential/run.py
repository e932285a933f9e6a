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

# Why we error where the converter accepts, by the code that decides: suggestions for new
# table rows, to be reviewed before they are pasted into stricter.md.
SUGGESTED: dict[str, tuple[str, str]] = {
    "VKS200": ("spec", "a value of the wrong JSON type (null included), refused by the spec's "
                       "schema; the converter reads null as absent and never reads `_type`"),
    "VKS103": ("spec", "duplicate key: the spec asks for deterministic key naming; the "
                       "converter silently keeps the last value"),
    "VKS111": ("spec", "leading zero in a resource index, invalid by the spec; the converter "
                       "ignores the key"),
    "VKS202": ("spec", "a workgroup_sizes value below 1, invalid by the spec; a zero "
                       "dispatches nothing"),
    "VKS210": ("spec", "push_constants is not the spec's `name: size` list"),
    "VKS212": ("spec", "a push constant of size 0, invalid by the spec's layout"),
    "VKS420": ("spec", "the spec defines workgroup_sizes as the shader's local size "
                       "(workgroup-semantics = local-size)"),
    "VKS511": ("spec", "input_i describes the op's i-th operand; the op has no such operand "
                       "and the converter never reads it"),
    "VKS513": ("spec", "output_i describes the op's i-th result; the op has no such result "
                       "and the converter never reads it"),
    "VKS201": ("runtime", "the entry point is not a name the shader can have: the runtime "
                          "cannot find it"),
    "VKS205": ("runtime", "empty shader code: the runtime has nothing to compile"),
    "VKS208": ("runtime", "the decoded bytes are not SPIR-V: the runner's SPIRV-Tools pass "
                          "rejects the module"),
    "VKS401": ("runtime", "the decoded SPIR-V is malformed: the runner's SPIRV-Tools pass "
                          "rejects the module"),
    "VKS404": ("runtime", "the decoded SPIR-V fails spirv-val: the runner's SPIRV-Tools pass "
                          "rejects the module"),
    "VKS410": ("runtime", "the module has no such entry point: the runtime cannot create "
                          "the pipeline"),
    "VKS300": ("runtime", "the shader does not compile: the runtime compiles it and fails"),
    "VKS302": ("runtime", "GLSL entry points are `main`: the runtime's compiled module has "
                          "no other"),
    "VKS222": ("runtime", "two resources on one (set, binding): the shader sees only one "
                          "of them"),
    "VKS226": ("runtime", "VK_FORMAT_UNDEFINED has no texel size: the runtime cannot size "
                          "or read the resource"),
    "VKS231": ("runtime", "a sampler value the converter cannot map is left unset: the "
                          "runtime samples with a default instead"),
    "VKS232": ("runtime", "the format cannot be used with the descriptor type: the runtime "
                          "cannot create the resource"),
    "VKS412": ("runtime", "the shader has no resource at the declared (set, binding): the "
                          "tensor is bound where the shader never reads it"),
    "VKS414": ("runtime", "the declared descriptor type differs from the shader's: the "
                          "runtime binds a resource of the wrong kind"),
    "VKS415": ("runtime", "the declared format differs from the shader's image format"),
    "VKS422": ("runtime", "the declared push-constant layout differs from the shader's"),
    "VKS423": ("runtime", "the shader reads push constants the attributes do not declare: the "
                          "converter drops push constants, so nothing tells the runner what "
                          "to supply and the shader reads zeros"),
    "VKS514": ("runtime", "the tensor's element type and vkformat disagree: the runtime sizes "
                          "and reads the resource by vkformat, so values are misread"),
    "VKS516": ("runtime", "the tensor's rank differs from the shader's tensor type: the "
                          "runtime binds a tensor the shader cannot index"),
    "VKS251": ("runtime", "a uniform buffer is bound as a storage buffer by the runtime: the "
                          "uniform block reads zeros"),
    "VKS252": ("runtime", "the scenario runner binds only tensors, buffers and images: it "
                          "refuses this descriptor type (texel or dynamic buffers, sampled "
                          "images without a sampler): the op never runs"),
    "VKS518": ("runtime", "with this dispatch the shader's stores never reach some elements "
                          "of the result: the runtime leaves them unwritten"),
    "VKS522": ("runtime", "with this dispatch an unguarded store writes past the result: the "
                          "runtime overwrites the memory after it"),
    "VKS520": ("runtime", "the op's results are returned in another order: the VGF's "
                          "outputs follow the op's order, so they come back swapped"),
}


def suggest(codes: tuple[str, ...]) -> tuple[str, str]:
    for code, suggestion in SUGGESTED.items():
        if code in codes:
            return suggestion
    return "?", "?"


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
        reason, why = suggest(us.errors)
        print(f"| `{case_id}` | {', '.join(us.errors)} | {reason} | {why} |")
    for case_id in outcome.listed_not_stricter:
        print(f"STALE   {case_id}: listed in stricter.md but we now agree")
    for case_id, listed, actual in outcome.codes_changed:
        print(f"CODES   {case_id}: stricter.md lists {', '.join(listed)}, we now report "
              f"{', '.join(actual)}")
    accepted = sum(1 for v in reference.values() if v.ok)
    print(f"{len(cases)} cases: converter accepts {accepted}, rejects or breaks "
          f"{len(cases) - accepted}; agree {len(outcome.agree)}, stricter (listed) "
          f"{len(outcome.stricter_listed)}, stricter (unlisted) "
          f"{len(outcome.stricter_unlisted)}, looser {len(outcome.looser)}; "
          f"converter {converted - started:.1f} s, check {checked - converted:.1f} s",
          file=sys.stderr)
    return 1 if outcome.problems else 0


if __name__ == "__main__":
    sys.exit(main())
