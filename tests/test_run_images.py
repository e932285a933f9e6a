"""Images through `run` on lavapipe: every format the 0.11.0 scenario runner's DDS reader
and writer accept, read as a sampled image and written back as a storage image; the
formats it refuses, refused before running; the op's sampler, as the VGF keeps it, given
to the runner.

The formats are grouped by how a shader sees them (float, signed, unsigned), one op per
group with an image in and an image out per format, so that 17 formats cost 3 runs.
"""

from __future__ import annotations

import numpy as np
import pytest

import tosa_vkshader
from tosa_vkshader import Options, validate, vulkan
from tosa_vkshader.codegen import CustomOp, op_from_shader
from tosa_vkshader.diagnostics import Severity
from tosa_vkshader.runtime.layout import RUNNER_IMAGE_FORMATS

pytestmark = pytest.mark.runtime

# format -> (GLSL image format qualifier, None: declared without one; element type)
FORMATS = {
    "float": {
        "VK_FORMAT_R32G32B32A32_SFLOAT": ("rgba32f", "f32"),
        "VK_FORMAT_R16G16B16A16_SFLOAT": ("rgba16f", "f16"),
        "VK_FORMAT_R8G8B8A8_UNORM": ("rgba8", "ui8"),
        "VK_FORMAT_R8G8B8A8_SNORM": ("rgba8_snorm", "i8"),
        "VK_FORMAT_R16G16_SFLOAT": ("rg16f", "f16"),
        "VK_FORMAT_R32_SFLOAT": ("r32f", "f32"),
        "VK_FORMAT_R8G8_UNORM": ("rg8", "ui8"),
        "VK_FORMAT_R16_SFLOAT": ("r16f", "f16"),
        "VK_FORMAT_R8_UNORM": ("r8", "ui8"),
        "VK_FORMAT_R8_SNORM": ("r8_snorm", "i8"),
        # no SPIR-V image format: a storage image declared without a qualifier
        "VK_FORMAT_B8G8R8A8_UNORM": (None, "ui8"),
    },
    "int": {
        "VK_FORMAT_R16G16B16A16_SINT": ("rgba16i", "i16"),
        "VK_FORMAT_R8G8B8A8_SINT": ("rgba8i", "i8"),
        "VK_FORMAT_R8G8_SINT": ("rg8i", "i8"),
    },
    "uint": {
        "VK_FORMAT_R32_UINT": ("r32ui", "ui32"),
        "VK_FORMAT_R8G8_UINT": ("rg8ui", "ui8"),
        "VK_FORMAT_R16_UINT": ("r16ui", "ui16"),
    },
}
PREFIX = {"float": ("", "vec4"), "int": ("i", "ivec4"), "uint": ("u", "uvec4")}
NUMPY = {"f32": np.float32, "f16": np.float16, "ui8": np.uint8, "i8": np.int8,
         "i16": np.int16, "ui32": np.uint32, "ui16": np.uint16}
H, W = 4, 8
# What the format tables, the shaders' storage and this test may disagree on without the
# op being wrong for the runner: a normalized format over an integer tensor (VKS515).
LENIENT = Options(severity={"VKS515": Severity.WARNING})


def copy_shader(kind: str, formats: dict[str, tuple[str | None, str]]) -> str:
    prefix, vector = PREFIX[kind]
    lines = ["#version 460", "layout(local_size_x = 8, local_size_y = 4) in;"]
    body = []
    for index, (qualifier, _) in enumerate(formats.values()):
        out = index + len(formats)
        layout = f"set = 0, binding = {out}" + (f", {qualifier}" if qualifier else "")
        lines.append(f"layout(set = 0, binding = {index}) uniform {prefix}sampler2D in{index};")
        lines.append(f"layout({layout}) uniform writeonly {prefix}image2D out{index};")
        body.append(f"    imageStore(out{index}, p, {vector}(texelFetch(in{index}, p, 0)));")
    return "\n".join([*lines, "void main() {", "    ivec2 p = ivec2(gl_GlobalInvocationID.xy);",
                      *body, "}", ""])


def image(fmt: str, element: str, seed: int) -> np.ndarray:
    channels = len(vulkan.format_info(fmt).components)
    low, high = (-127, 127) if element in ("i8", "i16") else (0, 250)
    values = np.random.default_rng(seed).integers(low, high, (1, H, W, channels))
    return values.astype(NUMPY[element])


@pytest.mark.parametrize("kind", sorted(FORMATS))
def test_every_image_format_the_runner_takes_round_trips(kind):
    formats = FORMATS[kind]
    names = list(formats)
    format_of = {f"in{i}": fmt for i, fmt in enumerate(names)} | \
        {f"out{i}": fmt for i, fmt in enumerate(names)}
    op = op_from_shader(copy_shader(kind, formats), language="GLSL", workgroup_sizes=[1, 1, 1],
                        format_of=format_of, options=LENIENT)
    images = [image(fmt, element, seed) for seed, (fmt, (_, element))
              in enumerate(formats.items())]
    types = [f"tensor<1x{H}x{W}x{a.shape[-1]}x{element}>"
             for a, (_, element) in zip(images, formats.values(), strict=True)]
    result = tosa_vkshader.run(op.to_mlir(types, types, options=LENIENT), images,
                               options=LENIENT, validate=True)
    assert result.findings == []  # every element written, nothing the layer objects to
    for fmt, got, want in zip(names, result, images, strict=True):
        np.testing.assert_array_equal(got, want, err_msg=fmt)


def test_the_table_is_what_the_tests_cover():
    assert {fmt for group in FORMATS.values() for fmt in group} == set(RUNNER_IMAGE_FORMATS)


def test_a_format_the_runner_refuses_is_refused_before_running():
    """`RWTexture2D<float2>` declares Rg32f: the runner would stop with "Unknown DXGI
    format: 16" once it has compiled the shader; `run` says so first."""
    shader = ("#version 460\nlayout(local_size_x = 8, local_size_y = 4) in;\n"
              "layout(set = 0, binding = 0, rg32f) uniform writeonly image2D y;\n"
              "void main() { imageStore(y, ivec2(gl_GlobalInvocationID.xy), vec4(1.0)); }\n")
    op = op_from_shader(shader, language="GLSL", workgroup_sizes=[1, 1, 1])
    mlir = op.to_mlir([], [f"tensor<1x{H}x{W}x2xf32>"])
    with pytest.raises(tosa_vkshader.RunError) as caught:
        tosa_vkshader.run(mlir, [])
    [refused] = caught.value.diagnostics
    assert refused.code == "VKS959" and caught.value.exit_code == 1
    assert "VK_FORMAT_R32G32_SFLOAT is DXGI format 16, which the 0.11.0 scenario runner's " \
           "DDS reader and writer do not know (\"Unknown DXGI format: 16\")" in refused.message
    assert refused.hint == "use VK_FORMAT_R32G32B32A32_SFLOAT"


BORDER = """#version 460
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) writeonly buffer Out { vec4 texels[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    // one texel outside the image on every side of it
    vec2 uv = (vec2(p) - 1.0 + 0.5) / vec2(6.0, 2.0);
    texels[p.y * 8 + p.x] = textureLod(tex, uv, 0.0);
}
"""


def sampler(u: str, v: str, border: str = "VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK") -> dict:
    return {"min_filter": "VK_FILTER_NEAREST", "mag_filter": "VK_FILTER_NEAREST",
            "address_mode_u": f"VK_SAMPLER_ADDRESS_MODE_{u}",
            "address_mode_v": f"VK_SAMPLER_ADDRESS_MODE_{v}", "border_color": border}


def test_the_ops_sampler_reaches_the_runner():
    """A 6 x 2 image read one texel beyond each edge: with CLAMP_TO_BORDER and an opaque
    black border those reads are [0, 0, 0, 1]; with REPEAT they wrap."""
    attrs = op_from_shader(BORDER, language="GLSL", workgroup_sizes=[1, 1, 1],
                           format_of={"tex": "VK_FORMAT_R32G32B32A32_SFLOAT"}).attrs
    texels = np.arange(1, 49, dtype=np.float32).reshape(1, 2, 6, 4)
    inside = np.zeros((4, 8), dtype=bool)
    inside[1:3, 1:7] = True
    runs = {}
    for mode in ("CLAMP_TO_BORDER", "REPEAT"):
        op = CustomOp.from_attributes(attrs | {"input_0_sampler": sampler(mode, mode)}, "b")
        mlir = op.to_mlir(["tensor<1x2x6x4xf32>"], ["tensor<32x4xf32>"])
        assert "VKS255" not in validate(mlir, path="m.mlir").codes
        runs[mode] = tosa_vkshader.run(mlir, [texels])[0].reshape(4, 8, 4)
    border = runs["CLAMP_TO_BORDER"]
    np.testing.assert_array_equal(border[inside].reshape(2, 6, 4), texels[0])
    np.testing.assert_array_equal(border[~inside], np.tile([0, 0, 0, 1], (20, 1)))
    repeat = runs["REPEAT"]
    np.testing.assert_array_equal(repeat[0, 0], texels[0, 1, 5])  # wraps to the far corner


def test_check_says_when_the_runner_cannot_honour_a_sampler():
    attrs = op_from_shader(BORDER, language="GLSL", workgroup_sizes=[1, 1, 1],
                           format_of={"tex": "VK_FORMAT_R32G32B32A32_SFLOAT"}).attrs
    mixed = attrs | {"input_0_sampler": sampler("REPEAT", "CLAMP_TO_EDGE")}
    [d] = [d for d in validate(mixed).diagnostics if d.code == "VKS255"]
    assert d.severity is Severity.WARNING and d.pointer == "/input_0_sampler"
    assert "address_mode_u VK_SAMPLER_ADDRESS_MODE_REPEAT and address_mode_v " \
           "VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE differ" in d.message
    same = attrs | {"input_0_sampler": sampler("REPEAT", "REPEAT")}
    assert "VKS255" not in {d.code for d in validate(same).diagnostics}
