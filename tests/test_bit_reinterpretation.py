"""VKS416 and deliberate bit reinterpretation: a buffer of uint words over a float32
tensor, read with `uintBitsToFloat` and written with `floatBitsToUint` (HLSL `asfloat`,
`asuint`; OpBitcast in SPIR-V), holds the tensor's bits on purpose. `check` stays quiet
about it, and the run shows the op computes what numpy does; the warning still fires
where one access takes the words as they are, or reinterprets them as another type."""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest

from tosa_vkshader import Options
from tosa_vkshader.cli import main
from tosa_vkshader.codegen import op_from_shader
from tosa_vkshader.spirv.tools import find_spirv_tool

T = "tensor<256xf32>"
FLOAT = "VK_FORMAT_R32_SFLOAT"
HEAD = """#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
"""
BITS = HEAD + "    y[i] = floatBitsToUint(uintBitsToFloat(x[i]) * 2.0 + 0.5);\n}\n"
VECTORS = HEAD.replace("uint x[]", "uvec4 x[]").replace("uint y[]", "uvec4 y[]") \
    + "    y[i] = floatBitsToUint(uintBitsToFloat(x[i]) * 2.0);\n}\n"
HLSL_BITS = """[[vk::binding(0, 0)]] StructuredBuffer<uint> x;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> y;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { y[id.x] = asuint(asfloat(x[id.x]) * 2.0); }
"""
# ByteAddressBuffer.Load4/Store4: four words loaded and cast as one vector, a cast vector
# stored word by word (OpCompositeConstruct / OpCompositeExtract around the OpBitcast).
HLSL_LOAD4 = """ByteAddressBuffer x : register(t0);
RWByteAddressBuffer y : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    y.Store4(id.x * 16, asuint(asfloat(x.Load4(id.x * 16)) * 2.0 - 1.0));
}
"""
# ... and the accidents: one of the four words also taken as the number it holds, or the
# stored vector not a cast
HLSL_LOAD4_WORD_USED = HLSL_LOAD4.replace(
    "asuint(asfloat(x.Load4(id.x * 16)) * 2.0 - 1.0)",
    "asuint(asfloat(x.Load4(id.x * 16)) * 2.0 - 1.0) + x.Load4(id.x * 16).x")
HLSL_STORE4_PLAIN = HLSL_LOAD4.replace("asuint(asfloat(x.Load4(id.x * 16)) * 2.0 - 1.0)",
                                       "uint4(asfloat(x.Load4(id.x * 16)) * 2.0)")
# The accidents: words taken as they are, stored as they are, or reinterpreted as int.
PLAIN = HEAD + "    y[i] = x[i] * 2u;\n}\n"
STORED_PLAIN = HEAD + "    y[i] = uint(uintBitsToFloat(x[i]) * 2.0);\n}\n"
AS_INT = HEAD + "    y[i] = floatBitsToUint(float(int(x[i])) * 2.0);\n}\n"
MIXED_READ = HEAD + "    y[i] = floatBitsToUint(uintBitsToFloat(x[i]) + float(x[i + 1u]));\n}\n"
# x[i] used both ways: reinterpreted and taken as the number it holds
BOTH_WAYS = HEAD + "    y[i] = floatBitsToUint(uintBitsToFloat(x[i]) + float(x[i]));\n}\n"


def one_load_both_ways() -> bytes:
    """BOTH_WAYS as SPIR-V whose one load of x[i] feeds both the bitcast and the
    conversion (what a compiler that merges the loads emits; glslc -O keeps two): built
    from glslc's -O output, the second load's uses moved onto the first."""
    tools = {name: find_spirv_tool(name, "") for name in ("spirv-dis", "spirv-as")}
    spirv = subprocess.run(["glslc", "-O", "-fshader-stage=compute", "--target-env=vulkan1.2",
                            "-", "-o", "-"], input=BOTH_WAYS.encode(), capture_output=True,
                           check=True, timeout=60).stdout
    text = subprocess.run([tools["spirv-dis"] or "spirv-dis", "--raw-id", "-"], input=spirv,
                          capture_output=True, check=True, timeout=60).stdout.decode()
    loads = re.findall(r"^ *(%\d+) = OpLoad %\d+ (%\d+)$", text, re.MULTILINE)
    (first, pointer), (second, again) = loads[-2:]  # x[i] twice (after gl_GlobalInvocationID)
    assert pointer == again
    text = re.sub(rf"^ *{second} = OpLoad .*\n", "", text, flags=re.MULTILINE)
    text = re.sub(rf"{second}\b", first, text)
    return subprocess.run([tools["spirv-as"] or "spirv-as", "--target-env", "vulkan1.2", "-",
                           "-o", "-"], input=text.encode(), capture_output=True, check=True,
                          timeout=60).stdout


def warned(source: str | bytes, language: str = "GLSL", formats: str = FLOAT,
           operands: tuple[str, ...] = (T,)) -> list[str]:
    """The names of the buffers VKS416 warns about, the op's vkformats all ``formats``."""
    op = op_from_shader(source, language=None if isinstance(source, bytes) else language,
                        format_of={"0": formats, "1": formats},
                        operands=list(operands), results=[operands[0]])
    return sorted(d.message.split("buffer ", 1)[1].split(" ")[0]
                  for d in op.notes if d.code == "VKS416")


def test_every_access_a_reinterpretation_is_no_mismatch():
    assert warned(BITS) == []
    assert warned(VECTORS, formats="VK_FORMAT_R32G32B32A32_SFLOAT",
                  operands=("tensor<64x4xf32>",)) == []
    assert warned(HLSL_BITS, language="HLSL") == []
    assert warned(HLSL_LOAD4, language="HLSL", operands=("tensor<1024xf32>",)) == []


def test_an_accidental_mismatch_still_warns():
    assert warned(PLAIN) == ["'In'", "'Out'"]
    assert warned(STORED_PLAIN) == ["'Out'"]  # uint(f) converts the value, not its bits
    assert warned(AS_INT) == ["'In'"]  # int(x) reinterprets as int32, not float
    assert warned(MIXED_READ) == ["'In'"]  # x[i + 1] is read as a uint
    assert warned(BOTH_WAYS) == ["'In'"]  # float(x[i]) converts the number, not the bits
    assert len(warned(one_load_both_ways())) == 1  # (-O strips the names: In's id)
    assert warned(HLSL_LOAD4_WORD_USED, language="HLSL",
                  operands=("tensor<1024xf32>",)) == ["'x'", "'y'"]
    assert warned(HLSL_STORE4_PLAIN, language="HLSL",
                  operands=("tensor<1024xf32>",)) == ["'y'"]
    # the same reinterpretation, another format: the bits are taken as float, not int
    assert warned(BITS, formats="VK_FORMAT_R32_SINT", operands=("tensor<256xi32>",)) == \
        ["'In'", "'Out'"]


@pytest.mark.runtime
def test_the_reinterpreting_op_runs_as_numpy_computes(capsys, tmp_path):
    """`check` is clean, and `run` on lavapipe gives numpy's answer for float32 tensors:
    the shader's uint words are the tensor's float bits."""
    op = op_from_shader(BITS, language="GLSL", format_of={"0": FLOAT, "1": FLOAT},
                        workgroup_sizes=[4, 1, 1], options=Options())
    (tmp_path / "model.mlir").write_text(op.to_mlir([T], [T], options=Options()))
    x = np.random.default_rng(416).standard_normal(256).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "want.npy", x * np.float32(2) + np.float32(0.5))
    assert main(["check", str(tmp_path / "model.mlir")]) == 0
    assert "VKS416" not in capsys.readouterr().out
    code = main(["run", str(tmp_path / "model.mlir"), "-i", str(tmp_path / "x.npy"),
                 "-o", str(tmp_path / "out"), "--expect", str(tmp_path / "want.npy"),
                 "--ulp", "0"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "all 1 result(s) match the expected arrays" in out and err == ""
