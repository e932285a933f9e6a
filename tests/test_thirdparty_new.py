"""What `new` writes for shaders as others write them (issue 27, item 7): the op it writes
checks clean where `new` has done what a warning would ask, a uniform block is said to be
unusable before any format is asked for, and a four-channel image's hint keeps its four
channels."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tosa_vkshader.cli import main

pytestmark = pytest.mark.runtime

PUSH = """#version 460
layout(local_size_x = 64) in;
layout(push_constant) uniform P { float scale; uint count; } p;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.count) y[i] = p.scale * x[i];
}
"""
UNIFORM = """#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) uniform Params { float scale; float bias; } params;
layout(set = 0, binding = 2) writeonly buffer Out { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = params.scale * x[i] + params.bias; }
"""
HLSL = """RWStructuredBuffer<float> y : register(u1);
StructuredBuffer<float> x : register(t0);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { y[id.x] = x[id.x] + 1.0; }
"""
SWAP = """#version 460
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  imageStore(dst, p, imageLoad(src, p).bgra);
}
"""
T = "tensor<256xf32>"


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text("[tool.tosa-vkshader]\n")
    return str(path)


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def clean(capsys, path: str, config: str) -> None:
    capsys.readouterr()
    assert main(["check", path, "--config", config]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out


@pytest.mark.parametrize(("name", "source"), [("push.comp", PUSH), ("add.hlsl", HLSL)])
def test_the_op_new_writes_checks_clean(tmp_path, capsys, config, name, source):
    """Push constants noted (VKS250 is a note), HLSL embedded as SPIR-V (no VKS254)."""
    out = str(tmp_path / "op.json")
    assert main(["new", write(tmp_path, name, source), "--name", "op", "--operands", T,
                 "--results", T, "-o", out, "--config", config]) == 0
    clean(capsys, out, config)


def test_push_constants_new_noted_are_given_by_name_to_run(tmp_path, capsys, config):
    out = str(tmp_path / "op.json")
    assert main(["new", write(tmp_path, "push.comp", PUSH), "--name", "op", "--operands", T,
                 "--results", T, "-o", out, "--config", config]) == 0
    assert json.loads(Path(out).read_text())["implementation_attrs"]["push_constants"] == \
        "scale: 4, count: 4"
    mlir = str(tmp_path / "op.mlir")
    assert main(["emit", "mlir", out, "-o", mlir, "--config", config]) == 0
    x = np.arange(256, dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "want.npy", 1.5 * x)
    run = ["run", mlir, "-i", str(tmp_path / "x.npy"), "--expect", str(tmp_path / "want.npy"),
           "-o", str(tmp_path / "out"), "--config", config]
    capsys.readouterr()
    assert main([*run, "--push-constant", "scale=1.5", "--push-constant", "count=256"]) == 0
    # what does not fit the block is said precisely, before anything runs
    for given, said in ((["scale=1.5"], "no value for count"),
                        (["scale=1.5", "count=256", "bias=1"], "no member 'bias'"),
                        (["scale=1,2", "count=256"], "takes 1 value(s), 2 given"),
                        (["scale=1.5", "count=x"], "'x' is not a uint32 value")):
        flags = [f"--push-constant={value}" for value in given]
        assert main([*run, *flags]) == 2
        err = capsys.readouterr().err
        assert "error[VKS957]" in err and said in err, err
        assert "scale (float32, offset 0), count (uint32, offset 4)" in err


def test_a_uniform_block_is_said_to_be_unusable_before_any_format_is_asked(
        tmp_path, capsys, config):
    shader = write(tmp_path, "scale.comp", UNIFORM)
    assert main(["new", shader, "--config", config]) == 1
    err = capsys.readouterr().err
    assert f"{shader}:4:1: error[VKS251]" in err
    assert "`Params` as `readonly buffer`" in err
    assert "VKS602" not in err and "--format-of" not in err


def test_a_four_channel_image_keeps_four_channels_in_the_hint(tmp_path, capsys, config):
    t = "tensor<1x16x16x4xi8>"
    out = str(tmp_path / "op.json")
    assert main(["new", write(tmp_path, "swap.comp", SWAP), "--name", "swap", "--operands",
                 t, "--results", t, "-o", out, "--config", config]) == 0
    err = capsys.readouterr().err
    assert "warning[VKS515] input_0_vkformat is VK_FORMAT_R8G8B8A8_UNORM" in err
    assert "help: use VK_FORMAT_R8G8B8A8_SINT (the shader's image then declares `rgba8i`)" \
        in err
    assert "R8_SINT" not in err
