"""Third-party compute shaders and what their authors assert, in numpy.

Each case is a shader under ``shaders/`` written the way shader authors write them
(buffers indexed by ``gid.x`` or ``gid.y * W + gid.x``, storage and sampled images,
``GL_ARM_tensors``, push constants, macros given with ``-D``, vec4 stores, grid-stride
loops, shared-memory reductions with ``barrier()``, int8/float16/int32, HLSL), the flags
a user gives ``tosa-vkshader new``, the op's tensor types, the inputs and the numpy
answer. ``tests/test_thirdparty_suite.py`` drives each through the documented command
line only: ``new`` -> ``check`` -> ``emit mlir`` -> ``run --expect``.

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
             np.uint32: "ui32", np.int16: "i16"}
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

    x, y0 = _f32(1000), _f32(1000)
    found.append(case("saxpy-push-constants-by-name", "saxpy_push.comp", [x, y0],
                      [np.float32(1.5) * x + y0], push_values=["alpha=1.5", "n=1000"]))

    m = _f32(48, 64)
    found.append(case("scale-2d-row-major", "scale_2d.comp", [m], [m * 3 - 1]))

    t = _f32(24, 40)
    found.append(case("transpose-macros", "transpose.comp", [t], [t.T.copy()],
                      flags=["-D", "ROWS=24u", "-D", "COLS=40u"]))

    v, s = _f32(256, 4), _f32(256, 4)
    found.append(case("vec4-stores", "vec4_mul.comp", [v, s], [v * s + 0.5]))

    g = _f32(4096)
    found.append(case("grid-stride-loop", "grid_stride.comp", [g], [g * g],
                      flags=["-D", "N=4096u"]))

    r = _f32(2048, low=-1, high=1)
    found.append(case("reduction-shared-barrier", "reduce_sum.comp", [r],
                      [r.reshape(8, 256).sum(axis=1, dtype=np.float32)], rtol=1e-4,
                      atol=1e-4))

    i8a = _RNG.integers(-128, 128, size=512).astype(np.int8)
    i8b = _RNG.integers(-128, 128, size=512).astype(np.int8)
    found.append(case("add-int8-saturating", "add_i8.comp", [i8a, i8b],
                      [np.clip(i8a.astype(np.int32) + i8b, -128, 127).astype(np.int8)]))

    h = _f32(256, low=-2, high=2).astype(np.float16)
    found.append(case("float16-multiply-add", "mul_f16.comp", [h],
                      [(h * np.float16(2) + np.float16(0.25)).astype(np.float16)],
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

    tex = _f32(1, 16, 16, 4, low=0, high=1)
    found.append(case("sampled-image-texel-fetch", "sampled_fetch.comp", [tex],
                      [(tex[0] * 2).reshape(256, 4)],
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

    vol = _f32(4, 8, 16)
    found.append(case("volume-3d-gid-z", "volume_3d.comp", [vol],
                      [vol + np.arange(4, dtype=np.float32)[:, None, None]]))

    sa, sb = _f32(320), _f32(320)
    found.append(case("two-results", "sum_diff.comp", [sa, sb], [sa + sb, sa - sb]))

    u = _RNG.integers(0, 2 ** 32, size=256, dtype=np.uint64).astype(np.uint32)
    bits = np.array([bin(int(w)).count("1") for w in u], dtype=np.uint32)
    found.append(case("bit-count-uint32", "popcount_u32.comp", [u], [bits + (u >> 28)]))

    c = _f32(512)
    found.append(case("clamp-push-constant-bytes", "clamp_push.comp", [c], [np.clip(c, -1, 2)],
                      push_constants=np.array([-1.0, 2.0], np.float32).tobytes()))

    tv = _f32(320, 4)
    tint = np.array([1.0, 0.5, 0.25, 2.0], np.float32)
    weights = np.array([0.5, -1.0, 3.0], np.float32)
    found.append(case("push-constants-std140-vec4-array", "tint_push.comp", [tv],
                      [tv * tint * np.float32(2) + weights[np.arange(320) % 3][:, None]],
                      push_values=["gain=2", "tint=1,0.5,0.25,2", "weights=0.5,-1,3"]))

    k = _f32(512)
    padded = np.concatenate([[0], k, [0]]).astype(np.float32)
    found.append(case("conv1d-guarded-neighbours", "conv1d.comp", [k],
                      [(0.25 * padded[:-2] + 0.5 * k + 0.25 * padded[2:]).astype(np.float32)]))

    rows = _f32(32, 128)
    found.append(case("row-max-shared-memory", "row_max.comp", [rows], [rows.max(axis=1)]))

    hs = _f32(640)
    found.append(case("hlsl-structured-buffers", "scale_storage.hlsl", [hs], [hs * 0.5 + 2]))

    hp = _f32(256)
    found.append(case("hlsl-push-constant-buffer", "bias_push.hlsl", [hp], [hp * 4 - 1],
                      push_values=["scale=4", "bias=-1"]))

    h2 = _f32(32, 32)
    found.append(case("hlsl-2d-dispatch", "grid_2d.hlsl", [h2], [h2 * h2]))

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
    return found


CASES = _cases()
