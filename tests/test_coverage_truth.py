"""What the shader's stores write, proven from its SPIR-V, against what lavapipe does.

Each shader is written as a user would (GLSL, compiled by the scenario runner's glslc),
and each claim is checked on the reference toolchain (tests/coverage_runs.py: outputs
prefilled with a sentinel, buffers padded): `new` computes a dispatch that writes every
element of every result and nothing past one; `check` reports VKS518 with as many
unwritten elements as the run leaves, VKS522 with as many written past the result as the
padding shows, VKS431 where a missing barrier() gives wrong sums, and nothing where the
run is right. The ops of each scenario share one model and one run.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from coverage_runs import SENTINEL, Op, model_text, run_written

from tosa_vkshader import Options, validate
from tosa_vkshader.codegen import CodegenError, op_from_shader
from tosa_vkshader.diagnostics import Severity

# GL_ARM_tensors, and the lines of the stores, come from the reference runtime's compiler.
pytestmark = [pytest.mark.runtime, pytest.mark.usefixtures("reference_glslc")]

V = "#version 460\n"
ADD_UNGUARDED = V + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    c[i] = a[i] + b[i];
}
"""
ADD_GUARDED = ADD_UNGUARDED.replace("    c[i] = a[i] + b[i];",
                                    "    if (i >= 1000u) return;\n    c[i] = a[i] + b[i];")
ADD_LENGTH = ADD_UNGUARDED.replace("    c[i] = a[i] + b[i];",
                                   "    if (i < c.length()) c[i] = a[i] + b[i];")
# 40 x 24 values, row by row, an 8 x 8 tile per workgroup.
BUFFER_2D = V + """layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    if (g.x >= 40u || g.y >= 24u) return;
    y[g.y * 40u + g.x] = x[g.y * 40u + g.x] * 2.0 + 1.0;
}
"""
IMAGE_2D = V + """layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(dst)))) return;
    imageStore(dst, p, imageLoad(src, p) * 2.0 + 1.0);
}
"""
# A 16 x 16 x 16 volume, x fastest, no guard: the dispatch must fit it exactly.
VOLUME_3D = V + """layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uvec3 g = gl_GlobalInvocationID;
    uint i = (g.z * 16u + g.y) * 16u + g.x;
    y[i] = x[i] - 3.0;
}
"""
# A 4 x 8 x 16 volume whose rows are one workgroup wide (local size 16 x 2 x 2): the
# workgroup x ID and the local y ID step the address by the same 16 elements.
VOLUME_ROWS = V + """layout(local_size_x = 16, local_size_y = 2, local_size_z = 2) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uvec3 g = gl_GlobalInvocationID;
    uint i = (g.z * 8u + g.y) * 16u + g.x;
    y[i] = x[i] + float(g.z);
}
"""
TENSOR_3D = V + """#extension GL_ARM_tensors : require
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(set = 0, binding = 0) uniform tensorARM<float, 4> x;
layout(set = 0, binding = 1) uniform tensorARM<float, 4> y;
void main() {
    uvec3 g = gl_GlobalInvocationID;
    float v;
    tensorReadARM(x, uint[](0, g.z, g.y, g.x), v);
    tensorWriteARM(y, uint[](0, g.z, g.y, g.x), v * 0.5);
}
"""
VEC4 = V + """layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = x[i] * 4.0; }
"""
FOUR_EACH_GUARDED = V + """layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x * 4u;
    if (i >= 512u) return;
    for (uint l = 0u; l < 4u; ++l) y[i + l] = x[i + l] + 1.0;
}
"""
FOUR_EACH = V + """layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x * 4u;
    y[i] = x[i] + 1.0;
    y[i + 1u] = x[i + 1u] + 1.0;
    y[i + 2u] = x[i + 2u] + 1.0;
    y[i + 3u] = x[i + 3u] + 1.0;
}
"""
GRID_STRIDE = V + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    for (uint i = gl_GlobalInvocationID.x; i < 1000u; i += gl_NumWorkGroups.x * 64u)
        y[i] = -x[i];
}
"""
# One sum of 64 inputs per workgroup, through shared memory.
REDUCE = V + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
shared float s[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = x[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 32u; stride > 0u; stride >>= 1u) {
        if (l < stride) s[l] += s[l + stride];
        barrier();
    }
    if (l == 0u) y[gl_WorkGroupID.x] = s[0];
}
"""
REDUCE_NO_BARRIER = REDUCE.replace("    s[l] = x[gl_GlobalInvocationID.x];\n    barrier();\n",
                                   "    s[l] = x[gl_GlobalInvocationID.x];\n")

F = np.float32
RNG = np.random.default_rng(25)
COVERAGE = ("VKS518", "VKS522", "VKS523")


def floats(*shape: int) -> np.ndarray:
    return RNG.integers(-50, 50, size=shape).astype(F)


def new(name: str, source: str, operands: list[str], results: list[str], **kw) -> Op:
    """The op `new` writes for the shader and these types."""
    op = op_from_shader(source, language="GLSL", operands=operands, results=results, **kw)
    return Op(name, op.attrs, operands, results)


def given(name: str, source: str, operands: list[str], results: list[str],
          workgroup_sizes: list[int], *, pad: bool = True) -> Op:
    """The op with a dispatch of our choosing (``pad``: see coverage_runs.Op)."""
    attrs = op_from_shader(source, language="GLSL").attrs
    return Op(name, attrs | {"workgroup_sizes": workgroup_sizes}, operands, results, pad)


def findings(ops: list[Op], options: Options | None = None) -> list[list]:
    """The diagnostics of each op of the model (by the op's line)."""
    report = validate(model_text(ops), options, path="model.mlir")
    found: list[list] = [[] for _ in ops]
    for d in report.diagnostics:
        found[d.location.line - 3].append(d)
    return found


def codes(diagnostics: list, *wanted: str) -> list[str]:
    return sorted(d.code for d in diagnostics if not wanted or d.code in wanted)


# -- new: a dispatch that writes every element and nothing past ---------------------------

CASES = [  # name, shader, operand types, result types, inputs, the numpy answer, dispatch
    ("add_guarded", ADD_GUARDED, ["tensor<1000xf32>"] * 2, ["tensor<1000xf32>"],
     lambda: [floats(1000), floats(1000)], lambda a, b: a + b, [16, 1, 1]),
    ("add_exact", ADD_UNGUARDED, ["tensor<1024xf32>"] * 2, ["tensor<1024xf32>"],
     lambda: [floats(1024), floats(1024)], lambda a, b: a + b, [16, 1, 1]),
    ("buffer_2d", BUFFER_2D, ["tensor<1x24x40x1xf32>"], ["tensor<1x24x40x1xf32>"],
     lambda: [floats(1, 24, 40, 1)], lambda x: x * 2 + 1, [5, 3, 1]),
    ("image_2d", IMAGE_2D, ["tensor<1x24x40x1xf32>"], ["tensor<1x24x40x1xf32>"],
     lambda: [floats(1, 24, 40, 1)], lambda x: x * 2 + 1, [5, 3, 1]),
    ("volume_3d", VOLUME_3D, ["tensor<16x16x16xf32>"], ["tensor<16x16x16xf32>"],
     lambda: [floats(16, 16, 16)], lambda x: x - 3, [4, 4, 4]),
    ("volume_rows", VOLUME_ROWS, ["tensor<4x8x16xf32>"], ["tensor<4x8x16xf32>"],
     lambda: [floats(4, 8, 16)], lambda x: x + np.arange(4, dtype=np.float32)[:, None, None],
     [1, 4, 2]),
    ("tensor_3d", TENSOR_3D, ["tensor<1x8x8x8xf32>"], ["tensor<1x8x8x8xf32>"],
     lambda: [floats(1, 8, 8, 8)], lambda x: x * 0.5, [2, 2, 2]),
    ("vec4", VEC4, ["tensor<64x4xf32>"], ["tensor<64x4xf32>"],
     lambda: [floats(64, 4)], lambda x: x * 4, [4, 1, 1]),
    ("four_each", FOUR_EACH, ["tensor<1024xf32>"], ["tensor<1024xf32>"],
     lambda: [floats(1024)], lambda x: x + 1, [8, 1, 1]),
    ("grid_stride", GRID_STRIDE, ["tensor<1000xf32>"], ["tensor<1000xf32>"],
     lambda: [floats(1000)], lambda x: -x, [16, 1, 1]),
    ("reduce", REDUCE, ["tensor<4096xf32>"], ["tensor<64xf32>"],
     lambda: [floats(4096)], lambda x: x.reshape(64, 64).sum(axis=1), [64, 1, 1]),
]


def test_new_dispatches_write_every_element_and_nothing_past(tmp_path: Path):
    ops = [new(name, source, operands, results)
           for name, source, operands, results, *_ in CASES]
    assert [op.attrs["workgroup_sizes"] for op in ops] == [case[-1] for case in CASES]
    for op, found in zip(ops, findings(ops), strict=True):
        assert codes(found, *COVERAGE, "VKS431") == [], (op.name, found)
        assert not [d for d in found if d.severity is Severity.ERROR], (op.name, found)
    inputs = [case[4]() for case in CASES]
    written = run_written(ops, [x for group in inputs for x in group], tmp_path)
    for case, args, result in zip(CASES, inputs, written, strict=True):
        name, *_, answer, _groups = case
        assert (result.unwritten, result.past) == (0, 0), name
        np.testing.assert_array_equal(result.values, answer(*args), err_msg=name)


def test_new_says_which_axis_walks_which_result_axis():
    op = op_from_shader(BUFFER_2D, language="GLSL", operands=["tensor<1x24x40x1xf32>"],
                        results=["tensor<1x24x40x1xf32>"])
    [note] = [d for d in op.notes if d.code == "VKS521"]
    assert "x walks axis 2 (40)" in note.message and "y walks axis 1 (24)" in note.message
    op = op_from_shader(FOUR_EACH, language="GLSL", operands=["tensor<1024xf32>"],
                        results=["tensor<1024xf32>"])
    [note] = [d for d in op.notes if d.code == "VKS521"]
    assert "each invocation writes 4 elements" in note.message
    # Four per invocation in a loop, half the invocations past the guard: 512 elements over
    # 1024 invocations is no count of what each writes, so the note claims none.
    op = op_from_shader(FOUR_EACH_GUARDED, language="GLSL", operands=["tensor<512xf32>"],
                        results=["tensor<512xf32>"])
    [note] = [d for d in op.notes if d.code == "VKS521"]
    assert "[1, 1, 1]" in note.message and "each invocation writes" not in note.message


def test_new_refuses_when_no_dispatch_is_exact(tmp_path: Path):
    """An unguarded store and 1,000 elements with a local size of 64: 16 workgroups write
    24 floats past the result (the run shows them), 15 leave 40 unwritten."""
    t = "tensor<1000xf32>"
    with pytest.raises(CodegenError) as info:
        op_from_shader(ADD_UNGUARDED, language="GLSL", operands=[t, t], results=[t])
    [refusal] = [d for d in info.value.diagnostics if d.code == "VKS623"]
    assert "writes 24 elements past result 0" in refusal.message
    a, b = floats(1000), floats(1000)
    over = given("over", ADD_UNGUARDED, [t, t], [t], [16, 1, 1])
    short = given("short", ADD_UNGUARDED, [t, t], [t], [15, 1, 1])
    ran = run_written([over, short], [a, b, a, b], tmp_path)
    assert (ran[0].unwritten, ran[0].past) == (0, 24)
    assert (ran[1].unwritten, ran[1].past) == (40, 0)


# -- check: what a given dispatch does --------------------------------------------------

def test_check_reports_exactly_what_the_run_leaves_and_overwrites(tmp_path: Path):
    t1000, t1024 = "tensor<1000xf32>", "tensor<1024xf32>"
    t2d = "tensor<1x24x40x1xf32>"
    ops = [
        # y-only dispatch of a 2-D shader: rows 8..23 stay unwritten
        given("buffer_y_short", BUFFER_2D, [t2d], [t2d], [5, 1, 1]),
        given("image_y_short", IMAGE_2D, [t2d], [t2d], [5, 1, 1]),
        # an unguarded store, 1,024 invocations, 1,000 elements
        given("over_unguarded", ADD_UNGUARDED, [t1000] * 2, [t1000], [16, 1, 1]),
        # the same dispatch with a guard, twice as many invocations with .length() (run
        # without padding: the guard reads the buffer's length)
        given("over_guarded", ADD_GUARDED, [t1000] * 2, [t1000], [20, 1, 1]),
        given("over_length", ADD_LENGTH, [t1000] * 2, [t1000], [32, 1, 1], pad=False),
        # four per invocation, dispatched as if one: 3,072 floats past
        given("four_counted", FOUR_EACH, [t1024], [t1024], [32, 1, 1]),
        # half the vec4s
        given("vec4_half", VEC4, ["tensor<64x4xf32>"], ["tensor<64x4xf32>"], [2, 1, 1]),
        # a grid-stride loop covers with any dispatch
        given("grid_three", GRID_STRIDE, [t1000], [t1000], [3, 1, 1]),
        # a 3-D volume dispatched in x and y only: 12 of 16 planes unwritten
        given("volume_flat", VOLUME_3D, ["tensor<16x16x16xf32>"], ["tensor<16x16x16xf32>"],
              [4, 4, 1]),
        # one output per workgroup, too few workgroups
        given("reduce_short", REDUCE, ["tensor<4096xf32>"], ["tensor<64xf32>"], [16, 1, 1]),
    ]
    lowered = Options(severity={code: Severity.WARNING for code in COVERAGE})
    found = findings(ops, lowered)
    by_name = dict(zip((op.name for op in ops), found, strict=True))
    inputs = [floats(1, 24, 40, 1), floats(1, 24, 40, 1), floats(1000), floats(1000),
              floats(1000), floats(1000), floats(1000), floats(1000), floats(1024),
              floats(64, 4), floats(1000), floats(16, 16, 16), floats(4096)]
    ran = dict(zip((op.name for op in ops), run_written(ops, inputs, tmp_path), strict=True))

    for name in ("buffer_y_short", "image_y_short"):
        [d] = [d for d in by_name[name] if d.code == "VKS518"]
        assert ran[name].unwritten == 640 and ran[name].first_unwritten == (0, 8, 0, 0)
        assert "leave 640 of the 960" in d.message and "(the first at index [0, 8, 0" \
            in d.message
        assert "y: 1 where 3 are needed" in d.message and "[5, 3, 1]" in d.hint
        assert codes(by_name[name], "VKS522") == []
    [d] = [d for d in by_name["over_unguarded"] if d.code == "VKS522"]
    assert ran["over_unguarded"].past == 24 and ran["over_unguarded"].unwritten == 0
    assert "writes 24 elements past the end" in d.message
    assert "gl_GlobalInvocationID.x from 1000 to 1023" in d.message
    [d] = [d for d in by_name["four_counted"] if d.code == "VKS522"]
    assert ran["four_counted"].past == 3072 and "writes 3072 elements past" in d.message
    assert "use workgroup_sizes [8, 1, 1]" in d.hint
    [d] = [d for d in by_name["vec4_half"] if d.code == "VKS518"]
    assert ran["vec4_half"].unwritten == 128 and "leave 128 of the 256" in d.message
    [d] = [d for d in by_name["volume_flat"] if d.code == "VKS518"]
    assert ran["volume_flat"].unwritten == 3072 and "leave 3072 of the 4096" in d.message
    assert "z: 1 where 4 are needed" in d.message
    [d] = [d for d in by_name["reduce_short"] if d.code == "VKS518"]
    assert ran["reduce_short"].unwritten == 48 and "leave 48 of the 64" in d.message
    for name in ("over_guarded", "over_length", "grid_three"):
        assert codes(by_name[name], *COVERAGE) == [], by_name[name]
        assert ran[name].unwritten == 0, name
    assert ran["over_guarded"].past == ran["grid_three"].past == 0


def test_a_missing_barrier_is_a_warning_and_the_run_shows_why(tmp_path: Path):
    t_in, t_out = "tensor<4096xf32>", "tensor<64xf32>"
    ops = [new("with_barrier", REDUCE, [t_in], [t_out]),
           new("without_barrier", REDUCE_NO_BARRIER, [t_in], [t_out])]
    with_barrier, without = findings(ops)
    assert codes(with_barrier, "VKS431") == []
    [d] = [d for d in without if d.code == "VKS431"]
    assert d.severity is Severity.WARNING and "`s`" in d.message
    assert "barrier()" in d.hint and d.shader_place.position.line == 8
    x = floats(4096)
    right, wrong = run_written(ops, [x, x], tmp_path)
    want = x.reshape(64, 64).sum(axis=1)
    np.testing.assert_array_equal(right.values, want)
    assert np.count_nonzero(wrong.values != want) > 0


# -- shaders in the styles of published compute kernels ------------------------------------

# A flattened index over a 3-D grid, bounded by a count from the push constants.
FLAT_PUSH = V + """layout(local_size_x = 256) in;
layout(push_constant) uniform P { uint ne; } p;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.z * 262144u + gl_GlobalInvocationID.y * 512u
           + gl_GlobalInvocationID.x;
    if (i >= p.ne) return;
    y[i] = x[i] * x[i];
}
"""
# One workgroup per row, its invocations striding over the columns.
ROW_SCALE = V + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint row = gl_WorkGroupID.x;
    for (uint c = gl_LocalInvocationID.x; c < 100u; c += 64u)
        y[row * 100u + c] = x[row * 100u + c] * 10.0;
}
"""
# Only atomics into the result: the reads of the input decide the dispatch.
HISTOGRAM = V + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Bins { uint bins[]; };
void main() {
    atomicAdd(bins[x[gl_GlobalInvocationID.x] % 16u], 1u);
}
"""
# An unguarded image kernel on an image that is not a multiple of the local size.
IMAGE_UNGUARDED = V + """layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(dst, p, -imageLoad(src, p));
}
"""

# A 2 x 2 block of stores per invocation (nearest-neighbour upsampling).
UPSAMPLE_BLOCK = V + """layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    float v = x[p.y * 16u + p.x];
    uint o = p.y * 64u + 2u * p.x;
    y[o] = v;
    y[o + 1u] = v;
    y[o + 32u] = v;
    y[o + 33u] = v;
}
"""


def test_kernels_in_published_styles_get_dispatches_that_run_right(tmp_path: Path):
    flat, rows, image = "tensor<1000xf32>", "tensor<7x100xf32>", "tensor<1x24x40x1xf32>"
    ops = [new("flat_push", FLAT_PUSH, [flat], [flat]),
           new("row_scale", ROW_SCALE, [rows], [rows]),
           new("histogram", HISTOGRAM, ["tensor<4096xi32>"], ["tensor<16xi32>"]),
           new("image_unguarded", IMAGE_UNGUARDED, [image], [image]),
           new("upsample_block", UPSAMPLE_BLOCK, ["tensor<16x16xf32>"],
               ["tensor<32x32xf32>"])]
    assert [op.attrs["workgroup_sizes"] for op in ops] == [
        [2, 2, 1],  # x: the 512 of a row (two workgroups of 256), y: two rows
        [7, 1, 1],  # one workgroup per row
        [64, 1, 1],  # the 4,096 inputs, 64 at a time
        [3, 2, 1],  # 48 x 32 invocations over 40 x 24 texels
        [2, 2, 1]]  # 16 x 16 invocations, a 2 x 2 block each
    found = findings(ops)
    assert codes(found[0], *COVERAGE) == ["VKS523"]  # the bound is a push constant
    assert codes(found[1], *COVERAGE) == []
    assert [(d.code, d.severity) for d in found[3] if d.code in COVERAGE] == [
        ("VKS522", Severity.INFO)]  # texels outside the image: no effect, by the spec
    assert codes(found[4], *COVERAGE) == []
    x_flat, x_rows = floats(1000), floats(7, 100)
    x_hist = RNG.integers(0, 1000, size=4096).astype(np.int32)
    x_image = floats(1, 24, 40, 1)
    x_small = floats(16, 16)
    ran = run_written(ops, [x_flat, x_rows, x_hist, x_image, x_small], tmp_path,
                      push_constants=np.uint32(1000).tobytes())
    assert [(r.unwritten, r.past) for r in ran] == [(0, 0)] * 5
    np.testing.assert_array_equal(ran[0].values, x_flat * x_flat)
    np.testing.assert_array_equal(ran[1].values, x_rows * 10)
    start = np.frombuffer(bytes([SENTINEL] * 4), dtype=np.int32)[0]  # (atomics add to it)
    np.testing.assert_array_equal(ran[2].values - start, np.bincount(x_hist % 16,
                                                                     minlength=16))
    np.testing.assert_array_equal(ran[3].values, -x_image)
    np.testing.assert_array_equal(ran[4].values, x_small.repeat(2, axis=0).repeat(2, axis=1))


# The row length comes from the push constants: where each store goes is not known.
PUSH_STRIDE = V + """layout(local_size_x = 8, local_size_y = 8) in;
layout(push_constant) uniform P { uint w; } p;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    y[g.y * p.w + g.x] = x[g.y * p.w + g.x] + 0.5;
}
"""


def test_too_few_invocations_are_proven_where_the_addresses_are_not(tmp_path: Path):
    """5 x 1 workgroups of 8 x 8 are 320 invocations, one store each: at least 640 of 960
    elements stay unwritten whatever `p.w` is; [5, 3, 1] may be right (it is, with
    w = 40), so it is no error, and the store, unguarded with a stride from the push
    constants, is a warning. `new`, which cannot know `p.w`, reads the 8 x 8 local size
    as x along the rows and y down the columns: [5, 3, 1], not a square spread."""
    t = "tensor<24x40xf32>"
    assert new("derived", PUSH_STRIDE, [t], [t]).attrs["workgroup_sizes"] == [5, 3, 1]
    ops = [given("short", PUSH_STRIDE, [t], [t], [5, 1, 1]),
           given("enough", PUSH_STRIDE, [t], [t], [5, 3, 1])]
    short, enough = findings(ops, Options(severity={"VKS518": Severity.WARNING}))
    [d] = [d for d in short if d.code == "VKS518"]
    assert "at most 320 of the 960 elements" in d.message and "at least 640" in d.message
    assert codes(enough, "VKS518") == []
    assert [(d.code, d.severity) for d in enough if d.code in COVERAGE] == [
        ("VKS522", Severity.WARNING)]
    x = floats(24, 40)
    ran = run_written(ops, [x, x], tmp_path, push_constants=np.uint32(40).tobytes())
    assert ran[0].unwritten == 640
    assert (ran[1].unwritten, ran[1].past) == (0, 0)
    np.testing.assert_array_equal(ran[1].values, x + 0.5)


# An unguarded tensor kernel (VK_ARM_tensors) dispatched over more than the tensor: the
# writes outside it have no effect by the spec (as for images), so VKS522 is an info.
TENSOR_2D_UNGUARDED = V + """#extension GL_ARM_tensors : require
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform tensorARM<float, 2> x;
layout(set = 0, binding = 1) uniform tensorARM<float, 2> y;
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    float v;
    tensorReadARM(x, uint[](g.y, g.x), v);
    tensorWriteARM(y, uint[](g.y, g.x), v * 0.5 + 1.0);
}
"""
TENSOR_4D_UNGUARDED = TENSOR_3D.replace("v * 0.5", "v - 7.0")


def test_an_unguarded_tensor_write_past_the_tensor_has_no_effect(capsys, tmp_path: Path):
    """Rows of 7 and of 6 elements under 8 invocations a row: were the writes past a row
    not dropped, those of column 7 (and 6) would land on the next row's first elements
    (a tensor is stored row after row), which other invocations write too. `run` on
    lavapipe with the emulation layers computes every element as numpy does, exits 0 and
    reports nothing (no VKS96x write check finding); `check`'s VKS522 is an info."""
    from tosa_vkshader.cli import main

    flat, cube = "tensor<5x7xf32>", "tensor<1x6x6x6xf32>"
    ops = [given("rows", TENSOR_2D_UNGUARDED, [flat], [flat], [2, 2, 1]),
           given("cube", TENSOR_4D_UNGUARDED, [cube], [cube], [2, 2, 2])]
    for found, written in zip(findings(ops), (8 * 8 - 5 * 7, 8 * 8 * 8 - 6 * 6 * 6),
                              strict=True):
        [over] = [d for d in found if d.code in COVERAGE]
        assert (over.code, over.severity) == ("VKS522", Severity.INFO)
        assert f"writes {written} elements outside result 0" in over.message
    x, y = floats(5, 7), floats(1, 6, 6, 6)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "y.npy", y)
    np.save(tmp_path / "want_x.npy", x * 0.5 + 1)
    np.save(tmp_path / "want_y.npy", y - 7)
    (tmp_path / "model.mlir").write_text(model_text(ops))
    code = main(["run", str(tmp_path / "model.mlir"), "-i", str(tmp_path / "x.npy"),
                 "-i", str(tmp_path / "y.npy"), "-o", str(tmp_path / "out"),
                 "--expect", str(tmp_path / "want_x.npy"),
                 "--expect", str(tmp_path / "want_y.npy")])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "all 2 result(s) match the expected arrays" in out
    assert err == ""
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "result_0.npy"), x * 0.5 + 1)
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "result_1.npy"), y - 7)


# std430 pads a vec3 to 16 bytes: element i is at byte 16 * i, not 12 * i.
VEC3 = V + """layout(local_size_x = 16) in;
layout(set = 0, binding = 0, std430) readonly buffer In { vec3 x[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { vec3 y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = x[i] * 2.0; }
"""
# Guarded by .length(): the runtime's, of a buffer it pads (three components to four).
SCALAR_LENGTH = V + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < y.length()) y[i] = x[i] * 2.0; }
"""
VEC4_OVER_SCALARS = VEC3.replace("vec3", "vec4")


def test_padded_layouts_are_judged_as_the_run_lays_them_out():
    """A vec3 array (16-byte stride) and a three-component vkformat (the runtime allocates
    16 bytes an element of R32G32B32_SFLOAT) over a tight tensor<64x3xf32>, and a vec4
    buffer over tensor<64xf32>: `check` counts what the run shows, element for element:
    the padding the vec3 stores skip (VKS518 / VKS962), and the stores past the result's
    data, inside the buffer or past its `.length()` (VKS522 / VKS963). `new` names no
    format for the vec3 buffer (none describes its layout) and refuses the dispatch that
    writes past the result."""
    import tosa_vkshader

    with pytest.raises(CodegenError) as refused:
        op_from_shader(VEC3, language="GLSL")
    assert {d.code for d in refused.value.diagnostics} == {"VKS602"}
    rgb, rows, flat = "VK_FORMAT_R32G32B32_SFLOAT", "tensor<64x3xf32>", "tensor<64xf32>"
    with pytest.raises(CodegenError) as refused:
        new("vec4_over", VEC4_OVER_SCALARS, [flat], [flat], workgroup_sizes=[4, 1, 1])
    assert "VKS522" in {d.code for d in refused.value.diagnostics}
    assert new("vec4_exact", VEC4_OVER_SCALARS, [flat], [flat]).attrs["workgroup_sizes"] \
        == [1, 1, 1]
    formats = {f"{kind}_0_vkformat": rgb for kind in ("input", "output")}
    ops = [Op("vec3", op_from_shader(VEC3, language="GLSL", format_of={"In": rgb, "Out": rgb})
              .attrs | {"workgroup_sizes": [4, 1, 1]}, [rows], [rows]),
           Op("length", op_from_shader(SCALAR_LENGTH, language="GLSL").attrs | formats
              | {"workgroup_sizes": [12, 1, 1]}, [rows], [rows]),
           given("vec4_over", VEC4_OVER_SCALARS, [flat], [flat], [4, 1, 1])]
    vec3, length, vec4 = findings(ops)
    assert codes(vec3, *COVERAGE) == ["VKS518", "VKS522"]
    assert "leave 48 of the 192 elements of result 0 (tensor<64x3xf32>) unwritten (the " \
           "first at index [1, 0])" in vec3[0].message + vec3[1].message
    past = {name: next(d.message for d in found if d.code == "VKS522")
            for name, found in (("vec3", vec3), ("length", length), ("vec4", vec4))}
    assert "writes 48 elements past the end" in past["vec3"]
    assert codes(length, *COVERAGE) == ["VKS522"]
    assert "writes 576 elements past the end" in past["length"]
    assert "writes 192 elements past the end" in past["vec4"]
    assert all("no other memory is hit" in message for message in past.values())
    lowered = Options(severity={"VKS518": Severity.WARNING, "VKS522": Severity.WARNING})
    x_rows, x_flat = floats(64, 3), floats(64)
    ran = tosa_vkshader.run(model_text(ops), [x_rows, x_rows, x_flat], options=lowered)
    shown = sorted((d.code, d.message.split(": ", 1)[1].split(" (")[0].split(";")[0])
                   for d in ran.findings)
    assert shown == [
        ("VKS962", "48 of 192 element(s) were never written"),
        ("VKS963", "the shader wrote 192 byte(s) past the end of the result, at bytes "
                   "768..1019 of the 3072-byte output resource"),
        ("VKS963", "the shader wrote 2304 byte(s) past the end of the result, at bytes "
                   "768..3071 of the 3072-byte output resource"),
        ("VKS963", "the shader wrote 768 byte(s) past the end of the result, at bytes "
                   "256..1023 of the 1024-byte output resource")], shown
    np.testing.assert_array_equal(ran[1], x_rows * 2)
    np.testing.assert_array_equal(ran[2], x_flat * 2)
