"""The coverage judgement against brute force, on shaders generated at random.

Each shader stores into `y[idx]` where `idx` is an affine form of the global invocation ID
and the store may sit behind a guard; each is compiled (shaderc), analysed as `check`
analyses it, and judged for a random dispatch and result size. The same dispatch is then
enumerated in Python, invocation by invocation, with the formula the shader was made from:
every element `check` says is never written is never written, an exact claim of coverage
or of a write past the end is the truth, and the dispatch `new` would write covers the
result exactly whenever it says so. (What lavapipe does with such shaders is shown in
test_coverage_truth.py; this is the arithmetic behind the claims, on many more forms.)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from tosa_vkshader import Options
from tosa_vkshader.shader import build_shaders, request_for
from tosa_vkshader.spirv.analysis.coverage import Extent, judge
from tosa_vkshader.spirv.analysis.derive import covering_dispatch


@dataclass(frozen=True)
class Form:
    local: tuple[int, int]
    sx: int  # idx = sx * gid.x + sy * gid.y + k
    sy: int
    k: int
    guard: str  # "", "axes" (gid.x < ax && gid.y < ay) or "index" (idx < n)
    ax: int
    ay: int
    n: int

    def source(self) -> str:
        guard = {"": "",
                 "axes": f"    if (g.x >= {self.ax}u || g.y >= {self.ay}u) return;\n",
                 "index": f"    if (idx >= {self.n}u) return;\n"}[self.guard]
        return (f"#version 460\nlayout(local_size_x = {self.local[0]}, local_size_y = "
                f"{self.local[1]}) in;\n"
                "layout(set = 0, binding = 0) writeonly buffer Out { float y[]; };\n"
                "void main() {\n    uvec2 g = gl_GlobalInvocationID.xy;\n"
                f"    uint idx = {self.sx}u * g.x + {self.sy}u * g.y + {self.k}u;\n"
                f"{guard}    y[idx] = 1.0;\n}}\n")

    def written(self, groups: tuple[int, int, int]) -> set[int]:
        found = set()
        for x in range(groups[0] * self.local[0]):
            for y in range(groups[1] * self.local[1]):
                idx = self.sx * x + self.sy * y + self.k
                if self.guard == "axes" and (x >= self.ax or y >= self.ay):
                    continue
                if self.guard == "index" and idx >= self.n:
                    continue
                found.add(idx)
        return found


def forms(count: int, seed: int) -> list[Form]:
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        local = rng.choice([(8, 8), (16, 1), (4, 4), (1, 1), (8, 2)])
        width = rng.choice([1, 3, 8, 12, 16, 20])
        sx, sy = rng.choice([(1, width), (width, 1), (1, 0), (2, 2 * width), (1, 1)])
        found.append(Form(local, sx, sy, rng.choice([0, 0, 0, 2]),
                          rng.choice(["", "axes", "index"]), width, rng.randint(1, 9),
                          rng.randint(1, 120)))
    return found


CASES = forms(60, 25)


@pytest.fixture(scope="module")
def analyses():
    """The shader stage's analyses, all shaders compiled in one batch."""
    requests = [request_for({"shader_language": "GLSL", "shader_code": form.source()})
                for form in CASES]
    return [outcome.shader.access for outcome in build_shaders(requests, Options())]


def judged(case: int, access):
    rng = random.Random(case)
    elements = rng.randint(1, 160)
    result = Extent(0, 0, "buffer", (elements,), 4, 4, "result 0")
    groups = (rng.randint(1, 6), rng.randint(1, 6), 1)
    [verdict] = judge(access, groups, [result])
    return elements, result, groups, verdict


def test_the_claims_are_not_vacuous(analyses):
    """Most cases are decided either way, and some of each kind."""
    verdicts = [judged(case, access)[3] for case, access in enumerate(analyses)]
    assert sum(v.complete for v in verdicts) >= 5
    assert sum(v.missing is not None for v in verdicts) >= 10
    assert sum(bool(v.overruns) for v in verdicts) >= 5
    assert sum(v.complete or v.missing is not None for v in verdicts) >= len(CASES) * 0.8


@pytest.mark.parametrize("case", range(len(CASES)))
def test_claims_match_brute_force(case, analyses):
    form, access = CASES[case], analyses[case]
    assert access is not None and access.unknown is None
    elements, result, groups, verdict = judged(case, access)
    written = form.written(groups)
    inside = {i for i in written if 0 <= i < elements}
    past = {i for i in written if i >= elements}
    if verdict.missing is not None:
        assert verdict.missing == elements - len(inside), form
    if verdict.complete:
        assert len(inside) == elements, form
    if verdict.overruns:
        assert verdict.past == len(past), form
    if not verdict.risky and verdict.unknown is None:  # nothing it could not read
        assert verdict.complete == (len(inside) == elements), form
        assert bool(verdict.overruns) == bool(past), form
    cover = covering_dispatch(access, [result])
    if cover is not None and cover.exact:
        written = form.written(cover.groups)
        assert {i for i in written if i < elements} == set(range(elements)), (form, cover)
        assert not {i for i in written if i >= elements}, (form, cover)
