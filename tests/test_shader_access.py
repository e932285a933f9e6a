"""The index analysis as the shader stage runs it: once per distinct module (spirv-opt
once per content, none on a warm run), what a missing optimizer leaves (notes, never
errors), where its findings point, and cooperative matrices counted as reads and writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tosa_vkshader import Options, validate
from tosa_vkshader.codegen import op_from_shader
from tosa_vkshader.diagnostics import Severity
from tosa_vkshader.spirv.tools import find_spirv_tool

from conftest import FIXTURES

COPY = "#version 460\n" + """layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = x[i] * 3.0;
}
"""


def op_file(path: Path, attrs: dict, tensor: str) -> Path:
    path.write_text(json.dumps({"domain_name": "com.arm.VulkanCustomShader",
                                "operator_name": path.stem, "inputs": [tensor],
                                "outputs": [tensor], "implementation_attrs": attrs}))
    return path


@pytest.fixture
def counted_spirv_opt(tmp_path, monkeypatch) -> Path:
    """spirv-opt behind a script that appends a line to a log for each start."""
    log = tmp_path / "spirv-opt.log"
    script = tmp_path / "spirv-opt"
    real = find_spirv_tool("spirv-opt", "TOSA_VKSHADER_SPIRV_OPT")
    script.write_text(f'#!/bin/sh\necho run >> "{log}"\nexec "{real}" "$@"\n')
    script.chmod(0o755)
    monkeypatch.setenv("TOSA_VKSHADER_SPIRV_OPT", str(script))
    return log


def test_spirv_opt_runs_once_per_distinct_module_and_not_at_all_when_warm(
        tmp_path, counted_spirv_opt):
    """Four ops, two distinct modules: two spirv-opt processes; a second `check` in a new
    process finds both analyses in the cache."""
    spirv = json.loads((FIXTURES / "spirv" / "valid" / "copy_f32.json").read_text())
    other = json.loads((FIXTURES / "spirv" / "valid" / "add_i32.json").read_text())
    files = [str(op_file(tmp_path / f"op{k}.json", attrs, "tensor<64xf32>"))
             for k, attrs in enumerate([spirv, spirv, spirv, other])]
    env = {**os.environ, "TOSA_VKSHADER_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):
        subprocess.run([sys.executable, "-m", "tosa_vkshader", "check", *files], env=env,
                       capture_output=True, check=False)
        runs = counted_spirv_opt.read_text().count("run") if counted_spirv_opt.exists() else 0
        assert runs == 2


def test_without_spirv_opt_coverage_is_a_note_never_an_error(tmp_path, monkeypatch):
    attrs = op_from_shader(COPY, language="GLSL").attrs | {"workgroup_sizes": [1, 1, 1]}
    document = op_file(tmp_path / "op.json", attrs, "tensor<4096xf32>").read_text()
    assert "VKS518" in {d.code for d in validate(document).errors}  # 64 of 4096 written
    monkeypatch.setenv("TOSA_VKSHADER_SPIRV_OPT", str(tmp_path / "missing-spirv-opt"))
    report = validate(document, Options(cache=False))
    assert report.ok
    [note] = [d for d in report.diagnostics if d.code == "VKS523"]
    assert note.severity is Severity.INFO and "spirv-opt" in note.message
    assert "tosa-vkshader run" in note.message
    t = "tensor<4096xf32>"
    op = op_from_shader(COPY, language="GLSL", operands=[t], results=[t],
                        options=Options(cache=False))
    assert op.attrs["workgroup_sizes"] == [64, 1, 1]  # one invocation per element
    [computed] = [d for d in op.notes if d.code == "VKS521"]
    assert "could not be analysed" in computed.message


def test_findings_point_at_the_store_line_or_name_the_instruction(reference_glslc):
    """GLSL compiled by the reference compiler carries its lines: the finding points at
    the store's line in `shader_code`; embedded SPIR-V names the instruction."""
    source = op_from_shader(COPY, language="GLSL").attrs | {"workgroup_sizes": [16, 1, 1]}
    spirv = op_from_shader(COPY, language="GLSL", embed="spirv").attrs \
        | {"workgroup_sizes": [16, 1, 1]}
    for attrs, where in ((source, "line"), (spirv, "instruction")):
        document = json.dumps({"domain_name": "com.arm.VulkanCustomShader",
                               "operator_name": "copy", "inputs": ["tensor<1000xf32>"],
                               "outputs": ["tensor<1000xf32>"], "implementation_attrs": attrs})
        [d] = [d for d in validate(document).diagnostics if d.code == "VKS522"]
        if where == "line":
            assert d.shader_place.position.line == 7  # y[i] = x[i] * 3.0;
            assert "OpStore to `Out` (line 7)" in d.message
        else:
            assert d.shader_place.instruction == "OpStore to `Out` (line 7)"


COOPERATIVE = "#version 460\n" + """#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
void main() {
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mc =
        coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
    uint tile = gl_WorkGroupID.x * 256u;
    coopMatLoad(ma, a, tile, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mb, b, tile, 16u, gl_CooperativeMatrixLayoutRowMajor);
    mc = coopMatMulAdd(ma, mb, mc);
    coopMatStore(mc, c, tile, 16u, gl_CooperativeMatrixLayoutRowMajor);
}
"""


def test_cooperative_matrix_loads_and_stores_are_reads_and_writes(reference_glslc):
    """Each workgroup stores one 16 x 16 tile: the buffers are read and written (no
    VKS419/VKS424), and the tiles cover a result of 4 x 256 floats with [4, 1, 1]."""
    t = "tensor<4x256xf32>"
    op = op_from_shader(COOPERATIVE, language="GLSL", operands=[t, t], results=[t])
    assert [op.attrs[f"{k}_binding"] for k in ("input_0", "input_1", "output_0")] == [0, 1, 2]
    assert op.attrs["workgroup_sizes"] == [4, 1, 1]
    report = validate(op.attrs | {"workgroup_sizes": [2, 1, 1]})
    assert not {"VKS419", "VKS424"} & {d.code for d in report.diagnostics}


def chained(depth: int) -> bytes:
    """A valid module whose store is guarded by ``depth`` alternating logical operations
    and addressed by a value squared ``depth`` times (spirv-as of the cmeel wheel)."""
    lines = ["OpCapability Shader", "OpMemoryModel Logical GLSL450",
             'OpEntryPoint GLCompute %main "main" %gid %out',
             "OpExecutionMode %main LocalSize 64 1 1",
             "OpDecorate %gid BuiltIn GlobalInvocationId", "OpDecorate %Out Block",
             "OpMemberDecorate %Out 0 Offset 0", "OpDecorate %arr ArrayStride 4",
             "OpDecorate %out DescriptorSet 0", "OpDecorate %out Binding 0",
             "%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%uint = OpTypeInt 32 0",
             "%bool = OpTypeBool", "%v3 = OpTypeVector %uint 3",
             "%pin = OpTypePointer Input %v3", "%gid = OpVariable %pin Input",
             "%arr = OpTypeRuntimeArray %uint", "%Out = OpTypeStruct %arr",
             "%pout = OpTypePointer StorageBuffer %Out",
             "%out = OpVariable %pout StorageBuffer", "%pu = OpTypePointer StorageBuffer %uint",
             "%c0 = OpConstant %uint 0", "%c1 = OpConstant %uint 1", "%c9 = OpConstant %uint 9",
             "%main = OpFunction %void None %fn", "%entry = OpLabel",
             "%g = OpLoad %v3 %gid", "%x = OpCompositeExtract %uint %g 0",
             "%b0 = OpULessThan %bool %x %c9", "%s0 = OpIAdd %uint %x %c1"]
    for k in range(1, depth):
        lines.append(f"%b{k} = {'OpLogicalAnd' if k % 2 else 'OpLogicalOr'} %bool %b{k - 1} %b0")
        lines.append(f"%s{k} = OpIMul %uint %s{k - 1} %s{k - 1}")
    lines += ["OpSelectionMerge %merge None", f"OpBranchConditional %b{depth - 1} %then %merge",
              "%then = OpLabel", f"%p = OpAccessChain %pu %out %c0 %s{depth - 1}",
              "OpStore %p %x", "OpBranch %merge", "%merge = OpLabel", "OpReturn", "OpFunctionEnd"]
    assembler = find_spirv_tool("spirv-as", "TOSA_VKSHADER_SPIRV_AS")
    return subprocess.run([assembler, "--target-env", "vulkan1.3", "-", "-o", "-"],
                          input="\n".join(lines).encode(), capture_output=True,
                          check=True).stdout


def test_a_module_built_to_exhaust_the_analysis_gets_a_note():
    """Thousands of nested conditions and a polynomial of degree 2^2000: the analysis
    stops following them (no error, no traceback) and says it cannot decide."""
    import base64

    attrs = {"entry_point": "main", "workgroup_sizes": [1, 1, 1],
             "shader_language": "SPIR-V",
             "shader_code": base64.b64encode(chained(2000)).decode(),
             "output_0_binding": 0, "output_0_descriptorset": 0,
             "output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
             "output_0_vkformat": "VK_FORMAT_R32_UINT"}
    report = validate(json.dumps({"domain_name": "com.arm.VulkanCustomShader",
                                  "operator_name": "chained", "inputs": [],
                                  "outputs": ["tensor<64xui32>"],
                                  "implementation_attrs": attrs}))
    assert report.ok, report.diagnostics
    assert "VKS523" in {d.code for d in report.diagnostics}
