"""Third-party compute shaders and what their authors assert, in numpy.

Each case is a shader under ``shaders/`` written the way shader authors write them
(buffers indexed by ``gid.x`` or ``gid.y * W + gid.x``, storage and sampled images,
``GL_ARM_tensors``, push constants, macros given with ``-D`` and headers with ``-I``,
specialization constants, vec4 stores and 2 x 2 blocks, grid-stride and per-row loops,
shared-memory tiles and reductions with ``barrier()``, subgroup operations, atomics,
int8/uint8/float16/int32/uvec4, structs, HLSL), the flags a user gives
``tosa-vkshader new``, the op's tensor types, the inputs and the numpy answer.
``tests/test_thirdparty_suite.py`` drives each through the documented command line only:
``new`` -> ``check`` -> ``emit mlir`` -> ``run --expect``.

A case the reference runtime cannot run says so in ``limitation``: the step that stops,
the code it stops with, and a phrase of its message, which must name the runtime's
limitation (not this tool's).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

SHADERS = Path(__file__).parent / "shaders"
_RNG = np.random.default_rng(27)


@dataclass(frozen=True, slots=True)
class Limitation:
    step: str  # new, check, emit or run
    code: str
    phrase: str


@dataclass(slots=True)
class Case:
    name: str
    shader: str
    operands: list[str]
    results: list[str]
    inputs: list[np.ndarray]
    expected: list[np.ndarray]
    flags: list[str] = field(default_factory=list)
    push_constants: bytes | None = None  # --push-constants FILE (the block's bytes)
    push_values: list[str] = field(default_factory=list)  # --push-constant NAME=VALUE
    rtol: float = 1e-5
    atol: float = 1e-6
    limitation: Limitation | None = None

    @property
    def path(self) -> Path:
        return SHADERS / self.shader

    def __str__(self) -> str:
        return self.name


def _f32(*shape: int, low: float = -4.0, high: float = 4.0) -> np.ndarray:
    return _RNG.uniform(low, high, size=shape).astype(np.float32)


def _tensor(array: np.ndarray) -> str:
    kinds = {np.float32: "f32", np.float16: "f16", np.int32: "i32", np.int8: "i8",
             np.uint32: "ui32", np.int16: "i16", np.uint8: "ui8"}
    dims = "x".join(str(d) for d in array.shape)
    return f"tensor<{dims}x{kinds[array.dtype.type]}>"


def case(name: str, shader: str, inputs: list[np.ndarray], expected: list[np.ndarray],
         **kwargs) -> Case:
    """A case whose operand and result types are those of its arrays."""
    return Case(name, shader, [_tensor(a) for a in inputs], [_tensor(e) for e in expected],
                inputs, expected, **kwargs)


def _cases() -> list[Case]:
    found = []
    a, b = _f32(1024), _f32(1024)
    found.append(case("add-f32-gid-x", "add_f32.comp", [a, b], [a + b]))

    fa = _f32(1024)
    found.append(case("fixed-size-arrays", "fixed_array.comp", [fa], [fa * fa - 2]))

    es = _f32(512)
    found.append(case("glsl-es-310", "es310_scale.comp", [es], [es * np.float32(0.5) + 1]))

    nv = _f32(256)
    found.append(case("no-version-line", "no_version.comp", [nv],
                      [np.floor(nv) + (nv - np.floor(nv)) * np.float32(0.5)]))

    one = _f32(5000)
    found.append(case("local-size-1-large-dispatch", "one_per_group.comp", [one],
                      [np.abs(one) + 1]))

    sx = _f32(1000)
    found.append(case("specialization-constants-local-size", "spec_local_size.comp", [sx],
                      [sx * np.float32(0.5) + np.float32(128)]))

    px = _f32(512, low=-2, high=2)
    horner = np.zeros_like(px)
    for coeff in (-0.0625, 0.125, 0.25, -1.0, 0.5):
        horner = horner * px + np.float32(coeff)
    found.append(case("helper-functions-constant-loop", "poly_helpers.comp", [px],
                      [(3 * np.tanh(horner / 3)).astype(np.float32)], atol=1e-5))

    gx = _f32(512, low=-3, high=3)
    inner = np.float32(0.7978845608) * (gx + np.float32(0.044715) * gx ** 3)
    gelu = 0.5 * gx * (1 + np.tanh(inner))
    leaky = np.where(gx >= 0, gx, np.float32(0.1) * gx)
    found.append(case("include-header-functions", "include_helpers.comp", [gx],
                      [(gelu + leaky).astype(np.float32)],
                      flags=["-I", str(SHADERS / "include")], atol=1e-5))

    x, y0 = _f32(1000), _f32(1000)
    found.append(case("saxpy-push-constants-by-name", "saxpy_push.comp", [x, y0],
                      [np.float32(1.5) * x + y0], push_values=["alpha=1.5", "n=1000"]))

    lg = _f32(1000)
    found.append(case("guard-by-output-length", "length_guard.comp", [lg],
                      [np.exp(-lg * lg)], atol=1e-6, rtol=1e-5))

    m = _f32(48, 64)
    found.append(case("scale-2d-row-major", "scale_2d.comp", [m], [m * 3 - 1]))

    ma, mb = _f32(32, 64, low=-1, high=1), _f32(64, 48, low=-1, high=1)
    found.append(case("tiled-matmul-shared-memory", "matmul_tiled.comp", [ma, mb], [ma @ mb],
                      rtol=1e-4, atol=1e-4))

    nw = _f32(32, 64)
    found.append(case("num-workgroups-row-width", "num_workgroups_2d.comp", [nw], [-nw]))

    t = _f32(24, 40)
    found.append(case("transpose-macros", "transpose.comp", [t], [t.T.copy()],
                      flags=["-D", "ROWS=24u", "-D", "COLS=40u"]))

    tsrc = _f32(48, 32)
    found.append(case("transpose-shared-tile", "transpose_shared.comp", [tsrc], [tsrc.T.copy()]))

    cm = _f32(16, 24)
    found.append(case("column-major-output", "column_major_out.comp", [cm], [(cm.T + 1).copy()]))

    v, s = _f32(256, 4), _f32(256, 4)
    found.append(case("vec4-stores", "vec4_mul.comp", [v, s], [v * s + 0.5]))

    up = _f32(16, 16)
    found.append(case("upsample-2x2-blocks", "block_2x2.comp", [up],
                      [np.repeat(np.repeat(up, 2, axis=0), 2, axis=1)]))

    g = _f32(4096)
    found.append(case("grid-stride-loop", "grid_stride.comp", [g], [g * g],
                      flags=["-D", "N=4096u"]))

    rl = _f32(48, 40)
    found.append(case("one-invocation-per-row-loop", "row_loop.comp", [rl],
                      [np.cumsum(rl, axis=1, dtype=np.float32)], rtol=1e-5, atol=1e-5))

    cl = _f32(32, 96)
    found.append(case("one-invocation-per-column-loop", "column_loop.comp", [cl],
                      [cl / np.maximum(np.abs(cl).max(axis=0), np.float32(1e-6))]))

    r = _f32(2048, low=-1, high=1)
    found.append(case("reduction-shared-barrier", "reduce_sum.comp", [r],
                      [r.reshape(8, 256).sum(axis=1, dtype=np.float32)], rtol=1e-4,
                      atol=1e-4))

    i8a = _RNG.integers(-128, 128, size=512).astype(np.int8)
    i8b = _RNG.integers(-128, 128, size=512).astype(np.int8)
    found.append(case("add-int8-saturating", "add_i8.comp", [i8a, i8b],
                      [np.clip(i8a.astype(np.int32) + i8b, -128, 127).astype(np.int8)]))

    qw = _RNG.integers(-128, 128, size=(96, 64)).astype(np.int8)
    qa = _RNG.integers(-128, 128, size=64).astype(np.int8)
    acc = qw.astype(np.int32) @ qa.astype(np.int32)
    scaled = np.rint(acc.astype(np.float32) * np.float32(0.0123)).astype(np.int32) + 3
    found.append(case("int8-matvec-requantize", "requantize_i8.comp", [qw, qa],
                      [np.clip(scaled, -128, 127).astype(np.int8)],
                      push_values=["multiplier=0.0123", "zero_point=3"]))

    px8 = _RNG.integers(0, 256, size=512).astype(np.uint8)
    lut = (255 * (np.arange(256) / 255) ** (1 / 2.2)).astype(np.uint32)
    found.append(case("uint8-lookup-table", "uint8_lut.comp", [px8, lut],
                      [lut[px8].astype(np.uint8)]))

    q16 = _RNG.integers(-10000, 10000, size=256).astype(np.int16)
    found.append(case("int16-glsl", "int16_glsl.comp", [q16],
                      [((q16.astype(np.int32) * 3) >> 1).astype(np.int16)]))

    h = _f32(256, low=-2, high=2).astype(np.float16)
    found.append(case("float16-multiply-add", "mul_f16.comp", [h],
                      [(h * np.float16(2) + np.float16(0.25)).astype(np.float16)],
                      rtol=1e-3, atol=1e-3))

    h2v = _f32(256, 2, low=-3, high=3).astype(np.float16)
    found.append(case("float16-storage-float32-math", "f16_storage_f32_math.comp", [h2v],
                      [np.sqrt(h2v.astype(np.float32) ** 2 + 1).astype(np.float16)],
                      rtol=1e-3, atol=1e-3))

    i32 = _RNG.integers(-1000, 1000, size=640).astype(np.int32)
    found.append(case("relu-int32-macro", "relu_i32.comp", [i32],
                      [np.where(i32 > 10, i32, 0).astype(np.int32)],
                      flags=["-D", "THRESHOLD=10"]))

    ta, tb = _f32(768), _f32(768)
    found.append(case("generic-kernel-type-macros", "typed_add.comp", [ta, tb], [ta * tb],
                      flags=["-D", "TestType=float", "-D", "OP=*"]))
    ia = _RNG.integers(-50, 50, size=768).astype(np.int32)
    ib = _RNG.integers(-50, 50, size=768).astype(np.int32)
    found.append(case("generic-kernel-int-macros", "typed_add.comp", [ia, ib], [ia - ib],
                      flags=["-D", "TestType=int", "-D", "OP=-"]))

    img = _f32(1, 16, 24, 4, low=0, high=1)
    inverted = img.copy()
    inverted[..., :3] = 1 - img[..., :3]
    found.append(case("storage-image-rgba32f", "image_invert.comp", [img], [inverted]))

    r32 = _f32(1, 8, 32, 1)
    found.append(case("storage-image-r32f", "image_r32f.comp", [r32], [r32 * 0.5]))

    blur_src = _f32(1, 20, 24, 1)
    edge = np.pad(blur_src[0, :, :, 0], 1, mode="edge")
    box = np.sum([edge[dy:dy + 20, dx:dx + 24] for dy in range(3) for dx in range(3)],
                 axis=0) / 9
    found.append(case("image-blur-clamped-neighbours", "blur_clamp.comp", [blur_src],
                      [box.astype(np.float32)[None, :, :, None]], atol=1e-5))

    sp = _f32(1, 20, 28, 1)
    found.append(case("specialization-constants-2d-local-size", "spec_2d_image.comp", [sp],
                      [sp * np.float32(0.25)]))

    hf = _f32(1, 8, 8, 4, low=0, high=1).astype(np.float16)
    pm = hf.astype(np.float32)
    pm[..., :3] *= pm[..., 3:]
    found.append(case("storage-image-rgba16f", "rgba16f_image.comp", [hf],
                      [pm.astype(np.float16)], rtol=1e-3, atol=1e-3))

    ru = _RNG.integers(0, 2 ** 32, size=(1, 8, 16, 1), dtype=np.uint64).astype(np.uint32)
    yy, xx = np.meshgrid(np.arange(8, dtype=np.uint32), np.arange(16, dtype=np.uint32),
                         indexing="ij")
    found.append(case("storage-image-r32ui", "r32ui_image.comp", [ru],
                      [ru * np.uint32(2654435761) + (xx * np.uint32(31) + yy)[None, :, :, None]]))

    rgba8 = _RNG.integers(0, 256, size=(1, 8, 8, 4)).astype(np.uint8)
    c = rgba8.astype(np.float32) / 255
    found.append(case("rgba8-unorm-to-luma", "gray_rgba8.comp", [rgba8],
                      [(c[..., 0] * 0.25 + c[..., 1] * 0.5 + c[..., 2] * 0.25)[..., None]],
                      atol=1e-5))

    tex = _f32(1, 16, 16, 4, low=0, high=1)
    found.append(case("sampled-image-texel-fetch", "sampled_fetch.comp", [tex],
                      [(tex[0] * 2).reshape(256, 4)],
                      flags=["--format-of", "tex=VK_FORMAT_R32G32B32A32_SFLOAT"]))

    tx = _f32(1, 8, 8, 4, low=0, high=1)
    found.append(case("sampled-image-normalised-uv", "sampled_uv.comp", [tx],
                      [tx[..., [2, 1, 0, 3]].copy()],
                      flags=["--format-of", "tex=VK_FORMAT_R32G32B32A32_SFLOAT"]))

    rgba = _RNG.integers(-128, 128, size=(1, 8, 8, 4)).astype(np.int8)
    found.append(case("storage-image-bgra8-without-format", "to_bgra8.comp", [rgba],
                      [rgba[..., [2, 1, 0, 3]].copy()],
                      flags=["--format-of", "dst=VK_FORMAT_B8G8R8A8_UNORM"]))

    p, q = _f32(8, 32), _f32(8, 32)
    found.append(case("arm-tensors-rank-2", "tensor_add.comp", [p, q], [p + q]))

    nhwc = _RNG.integers(-127, 128, size=(1, 4, 8, 4)).astype(np.int8)
    found.append(case("arm-tensors-nhwc-int8", "tensor_nhwc_i8.comp", [nhwc],
                      [(-nhwc.astype(np.int32)).astype(np.int8)]))

    r4 = _RNG.integers(-100, 100, size=(1, 3, 10, 12)).astype(np.int32)
    found.append(case("arm-tensors-rank-4-int32", "tensor_rank4.comp", [r4],
                      [r4 * 2 + np.arange(3, dtype=np.int32)[None, :, None, None]]))

    vol = _f32(4, 8, 16)
    found.append(case("volume-3d-gid-z", "volume_3d.comp", [vol],
                      [vol + np.arange(4, dtype=np.float32)[:, None, None]]))

    nchw, cbias = _f32(2, 3, 12, 16), _f32(3)
    found.append(case("nchw-3d-dispatch-channel-bias", "nchw_bias.comp", [nchw, cbias],
                      [np.maximum(nchw + cbias[None, :, None, None], 0)]))

    sa, sb = _f32(320), _f32(320)
    found.append(case("two-results", "sum_diff.comp", [sa, sb], [sa + sb, sa - sb]))

    am = _f32(16, 64)
    found.append(case("argmax-two-results", "argmax_rows.comp", [am],
                      [am.max(axis=1), am.argmax(axis=1).astype(np.int32)]))

    u = _RNG.integers(0, 2 ** 32, size=256, dtype=np.uint64).astype(np.uint32)
    bits = np.array([bin(int(w)).count("1") for w in u], dtype=np.uint32)
    found.append(case("bit-count-uint32", "popcount_u32.comp", [u], [bits + (u >> 28)]))

    words = _RNG.integers(0, 2 ** 32, size=(128, 4), dtype=np.uint64).astype(np.uint32)
    shifts = _RNG.integers(-100, 100, size=(128, 4)).astype(np.int32)
    found.append(case("uvec4-ivec4-buffers", "uvec4_bits.comp", [words, shifts],
                      [(words << (shifts & 31).astype(np.uint32)) ^ (words >> 3)]))

    items = _f32(256, 2)
    found.append(case("array-of-structs", "struct_items.comp", [items],
                      [np.stack([items[:, 0] * items[:, 1], items[:, 1] + 1], axis=1)]))

    head = np.concatenate([[np.float32(1.75)], _f32(256)]).astype(np.float32)
    found.append(case("header-field-before-runtime-array", "header_array.comp", [head],
                      [head[1:] * head[0]]))

    table = _f32(100)
    indices = _RNG.integers(0, 100, size=256).astype(np.int32)
    found.append(case("two-descriptor-sets-gather", "set1_gather.comp", [table, indices],
                      [table[indices]]))

    c = _f32(512)
    found.append(case("clamp-push-constant-bytes", "clamp_push.comp", [c], [np.clip(c, -1, 2)],
                      push_constants=np.array([-1.0, 2.0], np.float32).tobytes()))

    tv = _f32(320, 4)
    tint = np.array([1.0, 0.5, 0.25, 2.0], np.float32)
    weights = np.array([0.5, -1.0, 3.0], np.float32)
    found.append(case("push-constants-std140-vec4-array", "tint_push.comp", [tv],
                      [tv * tint * np.float32(2) + weights[np.arange(320) % 3][:, None]],
                      push_values=["gain=2", "tint=1,0.5,0.25,2", "weights=0.5,-1,3"]))

    pu = _f32(20, 24)
    rows_scaled = np.arange(20, dtype=np.float32)[:, None] * np.float32(0.5)
    found.append(case("push-constants-uvec2-vec2", "push_uvec2.comp", [pu],
                      [pu * np.float32(3) + rows_scaled],
                      push_values=["size=24,20", "scale=3,0.5"]))

    ax = _f32(512)
    found.append(case("push-constant-switch", "activation_switch.comp", [ax],
                      [np.where(ax > 0, ax, np.float32(0.2) * ax)],
                      push_values=["mode=1", "alpha=0.2"]))

    pts = _f32(200, 3)
    model = np.array([[0, -1, 0, 2], [1, 0, 0, -1], [0, 0, 2, 0.5], [0, 0, 0, 1]], np.float32)
    moved = (np.concatenate([pts, np.ones((200, 1), np.float32)], axis=1) @ model.T)[:, :3]
    # vec3 at a 12-byte stride needs scalarBlockLayout, which the scenario runner does not
    # enable on its device (the validation layer rejects the module there: VKS404 once the
    # store is guarded). First, though, the unguarded store of 200 points by workgroups of
    # 64: every dispatch leaves points unwritten or writes past the result's data (into
    # the rest of the buffer the RGB format makes, which never reaches the result).
    found.append(case("scalar-layout-vec3-mat4-push", "scalar_vec3.comp", [pts],
                      [moved.astype(np.float32)],
                      push_values=["model=" + ",".join(str(v) for v in model.T.ravel())],
                      limitation=Limitation("new", "VKS623", "writes 168 elements past "
                                            "result 0 (tensor<200x3xf32>)")))

    ux = _f32(256, 4)
    uw = _f32(16, 4)
    # The reference runtime binds every input as a storage buffer: a uniform block reads
    # zeros there, so new refuses it (the std140 block would need the converter's help).
    found.append(case("uniform-buffer-weights", "ubo_weights.comp", [ux, uw],
                      [ux * uw[np.arange(256) % 16]],
                      limitation=Limitation("new", "VKS251", "the reference runtime binds "
                                            "every input as a storage buffer")))

    k = _f32(512)
    padded = np.concatenate([[0], k, [0]]).astype(np.float32)
    found.append(case("conv1d-guarded-neighbours", "conv1d.comp", [k],
                      [(0.25 * padded[:-2] + 0.5 * k + 0.25 * padded[2:]).astype(np.float32)]))

    rows = _f32(32, 128)
    found.append(case("row-max-shared-memory", "row_max.comp", [rows], [rows.max(axis=1)]))

    logits = _f32(16, 256)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    found.append(case("softmax-rows-two-passes", "softmax_rows.comp", [logits],
                      [(e / e.sum(axis=1, keepdims=True)).astype(np.float32)],
                      rtol=1e-4, atol=1e-7))

    sg = _f32(1024, low=-1, high=1)
    found.append(case("subgroup-add-reduction", "subgroup_sum.comp", [sg],
                      [sg.reshape(8, 128).sum(axis=1, dtype=np.float32)], rtol=1e-4,
                      atol=1e-4))

    hv = _RNG.uniform(0, 1, size=1024).astype(np.float32)
    found.append(case("histogram-global-atomics", "histogram_atomic.comp", [hv],
                      [np.bincount(np.minimum((hv * 16).astype(np.uint32), 15),
                                   minlength=16).astype(np.uint32)]))

    codes = _RNG.integers(0, 2 ** 32, size=8 * 256, dtype=np.uint64).astype(np.uint32)
    found.append(case("histogram-shared-atomics", "histogram_shared.comp", [codes],
                      [np.stack([np.bincount(block & 63, minlength=64) for block in
                                 codes.reshape(8, 256)]).astype(np.uint32)]))

    hs = _f32(640)
    found.append(case("hlsl-structured-buffers", "scale_storage.hlsl", [hs], [hs * 0.5 + 2]))

    bx = _f32(256)
    found.append(case("hlsl-byte-address-buffers", "byteaddress.hlsl", [bx], [bx * bx - 1]))

    parts = _f32(128, 4)
    found.append(case("hlsl-struct-buffer", "hlsl_struct.hlsl", [parts],
                      [0.5 * parts[:, 3] * (parts[:, :3] ** 2).sum(axis=1)], rtol=1e-5, atol=1e-5))

    # Buffer<T>/RWBuffer<T> are texel buffers, which the scenario runner does not bind.
    rb = _f32(256, 4)
    found.append(case("hlsl-typed-rwbuffer", "rwbuffer_typed.hlsl", [rb], [rb * 2],
                      limitation=Limitation("new", "VKS252", "the scenario runner binds only "
                                            "tensors, storage and uniform buffers")))

    hp = _f32(256)
    found.append(case("hlsl-push-constant-buffer", "bias_push.hlsl", [hp], [hp * 4 - 1],
                      push_values=["scale=4", "bias=-1"]))

    cu = _f32(256)
    params = np.array([2, 1], np.float32)
    # A plain cbuffer is a uniform block: the reference runtime binds storage buffers.
    found.append(case("hlsl-cbuffer-uniform", "cbuffer_ubo.hlsl", [cu, params], [cu * 2 + 1],
                      limitation=Limitation("new", "VKS251", "the reference runtime binds "
                                            "every input as a storage buffer")))

    h2 = _f32(32, 32)
    found.append(case("hlsl-2d-dispatch", "grid_2d.hlsl", [h2], [h2 * h2]))

    gs = _f32(1024, low=-1, high=1)
    found.append(case("hlsl-groupshared-reduction", "groupshared_sum.hlsl", [gs],
                      [gs.reshape(8, 128).sum(axis=1, dtype=np.float32)], rtol=1e-4,
                      atol=1e-4))

    wv = _RNG.integers(0, 1000, size=512).astype(np.uint32)
    found.append(case("hlsl-wave-active-sum", "wave_sum.hlsl", [wv],
                      [wv.reshape(8, 64).sum(axis=1).astype(np.uint32)]))

    rt = _f32(1, 8, 8, 4, low=0, high=1)
    rtw = rt * 0.5
    rtw[..., 3] = 1
    found.append(case("hlsl-rwtexture2d", "rwtexture.hlsl", [rt], [rtw]))

    hc = _f32(20, 24)
    found.append(case("hlsl-numthreads-cbuffer-push", "cbuffer_push.hlsl", [hc],
                      [hc * 2 + np.float32(0.5)],
                      push_values=["gain=2", "offset=0.5", "width=24", "height=20"]))

    ha, hb = (_f32(384, low=-2, high=2).astype(np.float16) for _ in range(2))
    found.append(case("hlsl-half", "half_add.hlsl", [ha, hb], [(ha + hb).astype(np.float16)],
                      rtol=1e-3, atol=1e-3))

    # The 0.11.0 scenario runner has no DXGI format for Rg32f images (it fails with
    # "Unknown DXGI format: 16"); run refuses the model before starting it.
    rg = _f32(1, 8, 8, 2)
    found.append(case("hlsl-rg32f-image", "rg32f_image.hlsl", [rg], [rg[..., ::-1].copy()],
                      limitation=Limitation("run", "VKS959", "R32G32_SFLOAT")))

    # glslang (Debian's glslc) has no int16_t in HLSL; DXC, when installed, compiles it.
    i16 = _RNG.integers(-1000, 1000, size=128).astype(np.int16)
    found.append(case("hlsl-int16", "int16_scale.hlsl", [i16], [(i16 * 3).astype(np.int16)],
                      limitation=None if shutil.which("dxc") else
                      Limitation("new", "VKS311", "DXC compiles it")))


    # explore-b: tensors of rank 1, 3 and 5, int16/float16/uint8 elements, tensors with
    # buffers, two tensor results, an out-of-bounds read; r16f and r32i images; sampled
    # images with a declared sampler; HLSL structs out, Load4/Store4, vk::binding with
    # sets, SV_GroupIndex loops, a block scan from WavePrefixSum.
    t16 = _RNG.integers(-20000, 20000, size=300).astype(np.int16)
    found.append(case("arm-tensors-rank-1-int16-size-guard", "tensor_rank1_i16.comp", [t16],
                      [np.clip(t16.astype(np.int32) * 3, -32768, 32767).astype(np.int16)]))

    ha3, hb3 = (_f32(3, 8, 16, low=-2, high=2).astype(np.float16) for _ in range(2))
    found.append(case("arm-tensors-rank-3-float16", "tensor_rank3_f16.comp", [ha3, hb3],
                      [(ha3 * hb3 + np.float16(1)).astype(np.float16)], rtol=1e-2, atol=1e-2))

    q8 = _RNG.integers(0, 256, size=(6, 40)).astype(np.uint8)
    found.append(case("arm-tensor-uint8-to-buffer", "tensor_u8_dequant.comp", [q8],
                      [(q8.astype(np.float32) - 128) / 64]))

    bq = _f32(8, 32)
    found.append(case("buffer-to-arm-tensor-int32", "buffer_to_tensor.comp", [bq],
                      [np.round(bq * 10).astype(np.int32)]))

    sx = _f32(4, 128)
    found.append(case("arm-tensors-two-results", "tensor_split.comp", [sx],
                      [np.maximum(sx, 0), np.minimum(sx, 0)]))

    r5 = _f32(1, 4, 8, 8, 1)
    found.append(case("arm-tensors-rank-5", "tensor_rank5.comp", [r5], [2 * r5]))

    so = _f32(4, 32)
    found.append(case("arm-tensor-read-out-of-bounds-value", "tensor_shift_oob.comp", [so],
                      [np.concatenate([so[:, 1:], np.zeros((4, 1), np.float32)], axis=1)]))

    depth = _RNG.uniform(0.5, 4, size=(1, 10, 12, 1)).astype(np.float16)
    found.append(case("storage-image-r16f-image-size-guard", "r16f_image.comp", [depth],
                      [(1 / depth.astype(np.float32)).astype(np.float16)], rtol=2e-3,
                      atol=2e-3))

    sn = _RNG.integers(-127, 128, size=(1, 8, 8, 4)).astype(np.int8)
    nrm = sn.astype(np.float32) / 127
    xyz = nrm[..., :3] + np.array([0, 0, 1e-3], np.float32)
    unit = np.concatenate([xyz / np.linalg.norm(xyz, axis=-1, keepdims=True), nrm[..., 3:]],
                          axis=-1)
    found.append(case("storage-image-rgba8-snorm", "snorm_image.comp", [sn],
                      [np.rint(unit * 127).astype(np.int8)], atol=1))

    # The 0.11.0 scenario runner's DDS reader has no DXGI format for R32_SINT images.
    ri = _RNG.integers(-100, 100, size=(1, 8, 8, 1)).astype(np.int32)
    found.append(case("storage-image-r32i", "r32i_image.comp", [ri], [np.abs(ri) - 7],
                      limitation=Limitation("run", "VKS959", "VK_FORMAT_R32_SINT")))

    mip = _f32(1, 16, 16, 4, low=0, high=1)
    found.append(case("sampled-image-bilinear-sampler-of", "texture_lod_half.comp", [mip],
                      [mip[0].reshape(8, 2, 8, 2, 4).mean(axis=(1, 3))[None]],
                      flags=["--format-of", "src=VK_FORMAT_R32G32B32A32_SFLOAT",
                             "--sampler-of", "src=linear"], atol=1e-5))

    wrap = _f32(1, 8, 16, 1)
    found.append(case("sampled-image-repeat-sampler-of", "texture_repeat.comp", [wrap],
                      [np.roll(wrap, -4, axis=2)],
                      flags=["--format-of", "src=VK_FORMAT_R32_SFLOAT",
                             "--sampler-of", "src=nearest,repeat"]))

    pairs = _f32(96, 2)
    found.append(case("hlsl-rwstructuredbuffer-of-structs-out", "rw_struct_out.hlsl", [pairs],
                      [np.stack([pairs.min(axis=1), pairs.max(axis=1)], axis=1)]))

    b4 = _f32(512)
    found.append(case("hlsl-byte-address-load4-store4", "byteaddress4.hlsl", [b4],
                      [b4 * 2 - 1]))

    va, vb = _f32(384), _f32(384)
    found.append(case("hlsl-vk-binding-two-sets", "vk_binding_sets.hlsl", [va, vb],
                      [va * vb]))

    rows2 = _f32(6, 256, low=-1, high=1)
    found.append(case("hlsl-group-index-strided-loop", "groupindex_loop.hlsl", [rows2],
                      [(rows2 * rows2).sum(axis=1, dtype=np.float32)], rtol=1e-4, atol=1e-4))

    counts = _RNG.integers(0, 10, size=256).astype(np.uint32)
    blocks = counts.reshape(4, 64)
    found.append(case("hlsl-wave-prefix-sum-block-scan", "wave_block_scan.hlsl", [counts],
                      [(np.cumsum(blocks, axis=1) - blocks).ravel().astype(np.uint32)]))

    # -- push constants that hold the sizes: `new` derives the dispatch assuming they are
    # sizes of the op's tensors (x along the 36 rows of a transposed store, one
    # workgroup per row of 300 columns)
    tw = _f32(20, 36)
    found.append(case("push-constant-dims-transposed-store", "transposed_write.comp", [tw],
                      [(2 * tw.T).copy()], push_values=["H=20", "W=36"]))

    rms, rms_w = _f32(6, 300), _f32(300)
    root = np.sqrt((rms * rms).mean(axis=1, keepdims=True) + np.float32(1e-6))
    found.append(case("rmsnorm-workgroup-per-row-push-columns", "rmsnorm_subgroup.comp",
                      [rms, rms_w], [(rms / root * rms_w).astype(np.float32)],
                      push_values=["cols=300", "eps=1e-6"], rtol=1e-4, atol=1e-4))

    # -- narrow elements packed into uint words: the tensors' formats
    pa = _RNG.integers(-128, 128, size=(256, 4)).astype(np.int8)
    pb = _RNG.integers(-128, 128, size=(256, 4)).astype(np.int8)
    found.append(case("int8-packed-four-per-uint", "int8_packed.comp", [pa, pb],
                      [np.clip(pa.astype(np.int32) + pb, -128, 127).astype(np.int8)]))

    hp2 = _f32(300, 2, low=-3, high=3).astype(np.float16)
    hw = hp2.astype(np.float32)
    found.append(case("float16-pairs-packed-in-uint", "f16_packed_uint.comp", [hp2],
                      [(hw / (1 + np.exp(-hw))).astype(np.float16)], rtol=2e-3, atol=2e-3))

    # -- vec2 buffers guarded by `.length()`: the tensor's format, so that it counts 500
    za, zb = _f32(500, 2), _f32(500, 2)
    zc = (za[:, 0] + 1j * za[:, 1]) * (zb[:, 0] + 1j * zb[:, 1])
    found.append(case("vec2-buffers-length-guard", "complex_mul_vec2.comp", [za, zb],
                      [np.stack([zc.real, zc.imag], axis=1).astype(np.float32)],
                      rtol=1e-5, atol=1e-5))

    # -- what no op can be made of, said at `new`: floats 16 bytes apart (std140), a
    # buffer written in place, two operands through one array of descriptors
    s140 = _f32(256)
    found.append(case("std140-float-array", "std140_storage.comp", [s140], [s140 + 1],
                      limitation=Limitation("new", "VKS602", "array stride of 16 bytes")))
    ip = _f32(256)
    found.append(case("in-place-buffer", "inplace.comp", [ip], [ip * 2 + 1],
                      limitation=Limitation("new", "VKS628", "read and written in place")))
    ba, bb = _f32(256), _f32(256)
    found.append(case("array-of-blocks", "block_array.comp", [ba, bb], [ba * bb],
                      limitation=Limitation("new", "VKS628",
                                            "binds one tensor per binding")))

    # -- an operand the shader reads only under a macro: the unused binding backs it
    oa, ob = _f32(256), _f32(256)
    found.append(case("binding-unused-without-macro", "optional_bias.comp", [oa, ob],
                      [oa * 3]))

    # -- more styles
    ia2, ib2 = _f32(1000), _f32(10)
    found.append(case("instance-named-blocks", "instance_blocks.comp", [ia2, ib2],
                      [ia2 + ib2[np.arange(1000) % 10]]))

    mats, pts4 = _f32(128, 4, 4), _f32(128, 4)
    found.append(case("mat4-buffer-column-major", "mat4_transform.comp", [mats, pts4],
                      [np.einsum("icr,ic->ir", mats, pts4).astype(np.float32)], rtol=1e-4,
                      atol=1e-4))

    u1, u2 = (_RNG.integers(0, 2 ** 32, size=256, dtype=np.uint64) for _ in range(2))
    product = u1 * u2
    found.append(case("uint64-arithmetic", "uint64_mul.comp",
                      [u1.astype(np.uint32), u2.astype(np.uint32)],
                      [(product & 0xFFFFFFFF).astype(np.uint32),
                       (product >> 32).astype(np.uint32)]))

    ni = _f32(256)
    ni[::7] = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        found.append(case("nan-and-inf-results", "nan_inf.comp", [ni],
                          [np.log(ni), (np.float32(1) / ni).astype(np.float32)]))

    cx, cw = _f32(1, 16, 16, 4, low=-1, high=1), _f32(3, 3, 4, 8, low=-1, high=1)
    padded_x = np.pad(cx[0], ((1, 1), (1, 1), (0, 0)))
    conv = np.stack([np.stack([np.einsum("hwi,hwio->o",
                                         padded_x[oy * 2:oy * 2 + 3, ox * 2:ox * 2 + 3], cw)
                               for ox in range(8)]) for oy in range(8)])
    found.append(case("conv2d-nhwc-padding-stride-2", "conv2d_nhwc_s2.comp", [cx, cw],
                      [conv[None].astype(np.float32)], rtol=1e-4, atol=1e-4))

    hs_rows = _f32(8, 128)
    found.append(case("cumsum-hillis-steele-shared", "cumsum_hillis_steele.comp", [hs_rows],
                      [np.cumsum(hs_rows, axis=1, dtype=np.float32)], rtol=1e-4, atol=1e-4))

    sv, perm = _f32(512), _RNG.permutation(512).astype(np.uint32)
    scattered = np.empty_like(sv)
    scattered[perm] = sv
    found.append(case("scatter-by-index-buffer", "scatter_perm.comp", [sv, perm],
                      [scattered]))

    # explore-e: ML inference kernels as ncnn, ggml, Kompute, MNN, IREE and ONNX runtime
    # write them
    nr = _f32(3, 5, 7)
    found.append(case("ncnn-shape-spec-constants-or-push-constants", "ncnn_relu.comp", [nr],
                      [np.where(nr < 0, nr * np.float32(0.1), nr)],
                      push_values=["dims=3", "w=7", "h=5", "c=3", "cstep=35"]))

    p4 = _f32(4, 6, 8, 4)
    found.append(case("ncnn-pack4-vec4-channel-step", "ncnn_sigmoid_pack4.comp", [p4],
                      [(1 / (1 + np.exp(-p4))).astype(np.float32)],
                      push_values=["w=8", "h=6", "c=4", "cstep=48"]))

    dx, dw, db = _f32(2, 10, 12, 4), _f32(2, 9, 4), _f32(2, 4)
    depthwise = sum(dx[:, ky:ky + 8, kx:kx + 10, :] * dw[:, None, None, ky * 3 + kx, :]
                    for ky in range(3) for kx in range(3)) + db[:, None, None, :]
    found.append(case("ncnn-depthwise-conv-pack4-output-sizes", "ncnn_convdw_pack4.comp",
                      [dx, dw, db], [depthwise.astype(np.float32)],
                      push_values=["w=12", "h=10", "c=2", "cstep=120", "outw=10", "outh=8",
                                   "outc=2", "outcstep=80"], rtol=1e-4, atol=1e-4))

    cat_a, cat_b = _f32(2, 6, 8), _f32(3, 6, 8)
    found.append(case("ncnn-concat-channels-store-in-both-branches", "ncnn_concat_c.comp",
                      [cat_a, cat_b], [np.concatenate([cat_a, cat_b])],
                      push_values=["w=8", "h=6", "ca=2", "cb=3", "cstep=48"]))

    fa16, fb16 = (_f32(2, 12, 16, low=-2, high=2).astype(np.float16) for _ in range(2))
    found.append(case("ncnn-fp16-storage-by-macro", "ncnn_fp16_storage.comp", [fa16, fb16],
                      [(fa16.astype(np.float32) * fb16 + fa16).astype(np.float16)],
                      flags=["-D", "NCNN_fp16_storage=1"],
                      push_values=["w=16", "h=12", "c=2", "cstep=192"], rtol=1e-3, atol=1e-3))

    logits16, mask16 = _f32(12, 70), _f32(4, 70, low=-1, high=1).astype(np.float16)
    z = logits16 * np.float32(0.5) + np.tile(mask16.astype(np.float32), (3, 1))
    ez = np.exp(z - z.max(axis=1, keepdims=True))
    found.append(case("ggml-softmax-loop-with-break-f16-mask", "ggml_soft_max.comp",
                      [logits16, mask16], [(ez / ez.sum(axis=1, keepdims=True)).astype(np.float32)],
                      push_values=["KX=70", "KY=4", "scale=0.5", "max_bias=0"],
                      rtol=1e-4, atol=1e-5))

    rn = _f32(16, 200)
    found.append(case("ggml-rms-norm-local-size-id-with-default", "ggml_rms_norm.comp", [rn],
                      [(rn / np.sqrt((rn * rn).mean(axis=1, keepdims=True) + 1e-6))
                       .astype(np.float32)],
                      push_values=["KX=200", "KY=16", "param1=1e-6", "param2=0"],
                      rtol=1e-4, atol=1e-4))

    scales = _f32(16, low=0.01, high=0.1).astype(np.float16)
    quants = _RNG.integers(-128, 128, size=(16, 32)).astype(np.int8)
    blocks = np.concatenate([scales.view(np.int8).reshape(16, 2), quants], axis=1)
    found.append(case("ggml-q8_0-blocks-f16-scale-int8-quants", "ggml_dequant_q8_0.comp",
                      [blocks], [(scales.astype(np.float32)[:, None] * quants).reshape(-1)],
                      flags=["--format-of", "A=VK_FORMAT_R8_SINT"],
                      push_values=["M=1", "K=512", "stride_a=0", "stride_b=0", "nel=512"]))

    ga, gb = _f32(2, 3, 16, 32), _f32(1, 1, 16, 1)
    strides = ["nb00=1", "nb01=32", "nb02=512", "nb03=1536"]
    found.append(case("ggml-binary-op-element-strides-broadcast", "ggml_add.comp", [ga, gb],
                      [ga + gb],
                      push_values=["ne=3072", "ne00=32", "ne01=16", "ne02=3", "ne03=2", *strides,
                                   "ne10=1", "ne11=16", "ne12=1", "ne13=1", "nb10=1", "nb11=1",
                                   "nb12=16", "nb13=16", "ne20=32", "ne21=16", "ne22=3",
                                   "ne23=2", *[s.replace("nb0", "nb2") for s in strides],
                                   "misalign_offsets=0", "param1=0", "param2=0", "param3=0"]))

    unsorted = _f32(5, 50)
    found.append(case("ggml-argsort-bitonic-shared", "ggml_argsort.comp", [unsorted],
                      [np.argsort(unsorted, axis=1, kind="stable").astype(np.int32)],
                      push_values=["ncols=50", "ncols_pad=64", "order=0"]))

    oa, ob = _f32(2, 3, 4, 5), _f32(1, 3, 1, 5)
    found.append(case("onnx-broadcast-shapes-uvec4-push", "ort_broadcast_add.comp", [oa, ob],
                      [oa + ob], push_values=["out_shape=2,3,4,5", "a_strides=60,20,5,1",
                                              "b_strides=0,5,0,1", "size=120"]))

    lhs, rhs = _f32(64, 32, low=-1, high=1), _f32(32, 64, low=-1, high=1)
    found.append(case("matmul-register-blocked-4x4-vec4", "iree_matmul_4x4.comp", [lhs, rhs],
                      [lhs @ rhs], rtol=1e-4, atol=1e-4))

    n = 100
    xi, xj = _f32(n), _f32(n)
    labels = (_RNG.random(n) > 0.5).astype(np.float32)
    w_in, b_in = np.array([0.3, -0.2], np.float32), np.array([0.1], np.float32)
    y_hat = 1 / (1 + np.exp(-(w_in[0] * xi + w_in[1] * xj + b_in[0])))
    dz = y_hat - labels
    loss = -(labels * np.log(y_hat) + (1 - labels) * np.log(1 - y_hat))
    found.append(case("kompute-logistic-regression-nine-buffers", "kompute_logreg.comp",
                      [xi, xj, labels, w_in, b_in],
                      [(xi * dz / 100).astype(np.float32), (xj * dz / 100).astype(np.float32),
                       (dz / 100).astype(np.float32), loss.astype(np.float32)],
                      rtol=1e-4, atol=1e-5))

    mu = _f32(1000)
    found.append(case("mnn-sizes-in-uniform-buffer", "mnn_relu6_ubo.comp", [mu],
                      [np.clip(mu, 0, 6)],
                      limitation=Limitation("new", "VKS251",
                                            "the reference runtime binds every input as a "
                                            "storage buffer")))

    g4 = _f32(512, 4, low=-3, high=3)
    gelu4 = 0.5 * g4 * (1 + np.tanh(0.7978845608 * (g4 + 0.044715 * g4 ** 3)))
    found.append(case("hlsl-constantbuffer-template-push-float4", "dml_gelu.hlsl", [g4],
                      [(gelu4 * 2).astype(np.float32)],
                      push_values=["ElementCount=512", "Scale=2"], rtol=1e-4, atol=1e-5))

    lx, gamma, beta = _f32(8, 100), _f32(100), _f32(100)
    lmu = lx.mean(axis=1, keepdims=True)
    lvar = ((lx - lmu) ** 2).mean(axis=1, keepdims=True)
    found.append(case("hlsl-layernorm-groupshared-helper", "hlsl_layernorm.hlsl",
                      [lx, gamma, beta],
                      [((lx - lmu) / np.sqrt(lvar + 1e-5) * gamma + beta).astype(np.float32)],
                      push_values=["Cols=100", "Eps=1e-5"], rtol=1e-4, atol=1e-4))

    return found


CASES = _cases()
