"""HLSL as others write it, with Debian's glslc (glslang 11) and with DXC when it is on
PATH (issue 27, item 5).

Each construct is compiled through `tosa-vkshader new`; what glslang compiles is run on
lavapipe and compared with numpy, what it cannot compile is VKS311 at the line, naming
DXC and the form glslang takes.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys

import numpy as np
import pytest

import tosa_vkshader
from tosa_vkshader.cli import main
from tosa_vkshader.codegen import op_from_shader

pytestmark = pytest.mark.runtime

T = "tensor<256xf32>"
STORAGE = """RWStructuredBuffer<float> outBuf : register(u1);
StructuredBuffer<float> inBuf : register(t0);
[numthreads(64, 1, 1)]
void CSMain(uint3 gid : SV_DispatchThreadID) {
  outBuf[gid.x] = inBuf[gid.x] * 2.0 + 1.0;
}
"""
PUSH_BLOCK = """struct Params { float scale; float bias; };
[[vk::push_constant]] ConstantBuffer<Params> pc;
RWStructuredBuffer<float> outBuf : register(u1);
StructuredBuffer<float> inBuf : register(t0);
[numthreads(64, 1, 1)]
void main(uint3 gid : SV_DispatchThreadID) {
  outBuf[gid.x] = inBuf[gid.x] * pc.scale + pc.bias;
}
"""
PUSH_STRUCT = PUSH_BLOCK.replace("ConstantBuffer<Params> pc", "Params pc")
INT16 = """RWStructuredBuffer<int16_t> outBuf : register(u1);
StructuredBuffer<int16_t> inBuf : register(t0);
[numthreads(64, 1, 1)]
void main(uint3 gid : SV_DispatchThreadID) {
  outBuf[gid.x] = inBuf[gid.x] * (int16_t)2;
}
"""
HALF = """RWStructuredBuffer<half> outBuf : register(u1);
StructuredBuffer<half> inBuf : register(t0);
[numthreads(64, 1, 1)]
void main(uint3 gid : SV_DispatchThreadID) {
  outBuf[gid.x] = inBuf[gid.x] + inBuf[gid.x];
}
"""
LOAD3 = """RWTexture2D<float4> outImg : register(u1);
RWTexture2D<float4> inImg : register(u0);
[numthreads(8, 8, 1)]
void main(uint3 gid : SV_DispatchThreadID) {
  outImg[gid.xy] = inImg.Load(int3(gid.xy, 0)) * 2.0;
}
"""
LOAD2 = LOAD3.replace("int3(gid.xy, 0)", "int2(gid.xy)")


def new(tmp_path, source: str, *flags: str, expect: int = 0) -> tuple[dict | None, str]:
    shader = tmp_path / "shader.hlsl"
    shader.write_text(source)
    out = tmp_path / "op.json"
    config = tmp_path / "pyproject.toml"
    config.write_text("[tool.tosa-vkshader]\n")
    code = main(["new", str(shader), "--config", str(config), "-o", str(out), *flags])
    assert code == expect
    return (json.loads(out.read_text()) if out.exists() else None), str(shader)


def test_storage_buffers_compile_with_glslang_11_and_run(tmp_path, capsys):
    """glslang before 12.1 decorates HLSL storage buffers with BufferBlock (SPIR-V <= 1.3):
    HLSL is compiled for SPIR-V 1.3, which the Vulkan 1.3 runtime takes."""
    attrs, _ = new(tmp_path, STORAGE, "--operands", T, "--results", T)
    assert attrs is not None and attrs["shader_language"] == "SPIR-V"
    assert attrs["entry_point"] == "CSMain"
    assert "VKS306" not in capsys.readouterr().err
    assert main(["check", str(tmp_path / "op.json"), "--config",
                 str(tmp_path / "pyproject.toml")]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out
    op = op_from_shader(source=STORAGE, language="HLSL", results=[T])
    x = np.linspace(-1, 1, 256, dtype=np.float32)
    [y] = tosa_vkshader.run(op.to_mlir([T], [T]), [x])
    np.testing.assert_array_equal(y, x * 2 + 1)


def test_half_is_a_16_bit_float_with_glslang(tmp_path):
    attrs, _ = new(tmp_path, HALF)
    assert attrs is not None
    assert attrs["input_0_vkformat"] == "VK_FORMAT_R16_SFLOAT"
    assert attrs["output_0_vkformat"] == "VK_FORMAT_R16_SFLOAT"


def test_a_push_constant_block_becomes_push_constants_and_runs(tmp_path):
    attrs, _ = new(tmp_path, PUSH_BLOCK)
    assert attrs is not None and attrs["push_constants"] == "scale: 4, bias: 4"
    op = op_from_shader(source=PUSH_BLOCK, language="HLSL", results=[T])
    x = np.arange(256, dtype=np.float32)
    [y] = tosa_vkshader.run(op.to_mlir([T], [T]), [x],
                            push_constants=np.array([3.0, 0.5], np.float32).tobytes())
    np.testing.assert_array_equal(y, x * 3 + 0.5)


def test_a_push_constant_struct_variable_is_a_precise_error(tmp_path, capsys):
    attrs, shader = new(tmp_path, PUSH_STRUCT, expect=1)
    assert attrs is None
    err = capsys.readouterr().err
    assert f"{shader}:2:1: error[VKS311]" in err
    assert "`[[vk::push_constant]] Params pc` a member of the `$Global` uniform buffer" in err
    assert "ConstantBuffer<Params> pc;" in err and "DXC" in err


def test_explicit_16_bit_types_are_a_precise_error(tmp_path, capsys):
    _attrs, shader = new(tmp_path, INT16, expect=1)
    err = capsys.readouterr().err
    assert f"{shader}:1:20: error[VKS311]" in err and "`int16_t`" in err
    assert "DXC compiles it" in err and "VKS300" not in err


def test_rwtexture_load_with_a_mip_level_is_a_precise_error(tmp_path, capsys):
    _attrs, shader = new(tmp_path, LOAD3, expect=1)
    err = capsys.readouterr().err
    assert f"{shader}:5:26: error[VKS311]" in err and "overload of `Load`" in err
    assert "`.Load(int2(x, y))`" in err
    attrs, _ = new(tmp_path, LOAD2, "--format-of", "inImg=VK_FORMAT_R32G32B32A32_SFLOAT")
    assert attrs is not None


FAKE_DXC = """#!{python}
# A stand-in for dxc: records its command line, answers --version as dxc does, and
# compiles with glslc so that the module is real (or prints one clang-style error).
import json, subprocess, sys
args = sys.argv[1:]
if args == ["--version"]:
    print("dxcompiler.dll: 1.8 - 1.8.2407.7 (stand-in); dxil.dll: 1.8")
    sys.exit(0)
with open({log!r}, "a") as log:
    log.write(json.dumps(args) + "\\n")
source = args[-1]
if "BROKEN" in open(source).read():
    print(source + ":3:5: error: use of undeclared identifier 'BROKEN'")
    print("    BROKEN;")
    print("    ^")
    sys.exit(1)
entry = args[args.index("-E") + 1]
sys.exit(subprocess.call(["glslc", "-x", "hlsl", "-fshader-stage=compute",
                          "--target-env=vulkan1.1", "-fhlsl-16bit-types",
                          "-fentry-point=" + entry, "-o", args[args.index("-Fo") + 1],
                          source]))
"""


@pytest.fixture
def dxc_on_path(tmp_path, monkeypatch):
    folder = tmp_path / "bin"
    folder.mkdir()
    log = tmp_path / "dxc.log"
    fake = folder / "dxc"
    fake.write_text(FAKE_DXC.format(python=sys.executable, log=str(log)))
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    assert shutil.which("dxc") == str(fake)
    return log


def test_dxc_on_path_compiles_hlsl_as_the_reference_does(tmp_path, dxc_on_path, capsys):
    attrs, _ = new(tmp_path, STORAGE, "--no-cache")
    assert attrs is not None and attrs["entry_point"] == "CSMain"
    [argv] = [json.loads(line) for line in dxc_on_path.read_text().splitlines()]
    assert argv[:5] == ["-spirv", "-T", "cs_6_2", "-E", "CSMain"]
    assert "-enable-16bit-types" in argv and "-fspv-target-env=vulkan1.3" in argv
    capsys.readouterr()
    broken = "RWStructuredBuffer<float> o : register(u0);\n[numthreads(64, 1, 1)]\n" \
             "void main() { BROKEN; }\n"
    _attrs, shader = new(tmp_path, broken, "--no-cache", expect=1)
    err = capsys.readouterr().err
    assert f"{shader}:3:5: error[VKS300]" in err and "undeclared identifier" in err


SAMPLE_LEVEL = """Texture2D<float4> src : register(t0);
SamplerState linearClamp : register(s0);
RWTexture2D<float4> dst : register(u1);
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    dst[id.xy] = src.SampleLevel(linearClamp, (float2(id.xy) * 2.0 + 1.0) / 16.0, 0);
}
"""
COMBINED = SAMPLE_LEVEL.replace(
    "Texture2D<float4> src : register(t0);\nSamplerState linearClamp : register(s0);",
    "[[vk::combinedImageSampler]][[vk::binding(0)]] Texture2D<float4> src;\n"
    "[[vk::combinedImageSampler]][[vk::binding(0)]] SamplerState linearClamp;")


def test_a_sampler_state_is_placed_with_the_hlsl_way_to_combine_it(tmp_path, capsys):
    """The runtime binds combined image samplers only: a SamplerState is refused at its
    declaration, with what HLSL writes instead (not GLSL's sampler2D)."""
    _attrs, shader = new(tmp_path, SAMPLE_LEVEL, "--format-of",
                         "src=VK_FORMAT_R32G32B32A32_SFLOAT", expect=1)
    err = capsys.readouterr().err
    assert f"{shader}:2:1: error[VKS605] linearClamp" in err
    assert "`[[vk::combinedImageSampler]]` with the same `[[vk::binding(N)]]`" in err


def test_combined_image_sampler_attributes_glslang_ignores_are_a_precise_error(
        tmp_path, capsys):
    _attrs, shader = new(tmp_path, COMBINED, "--format-of",
                         "src=VK_FORMAT_R32G32B32A32_SFLOAT", expect=1)
    err = capsys.readouterr().err
    assert f"{shader}:1:1: error[VKS311]" in err
    assert "ignores `[[vk::combinedImageSampler]]`" in err and "DXC" in err
    assert "unrecognized attribute (at" not in err and "VKS605" not in err
