"""A finding about embedded SPIR-V names the instruction it comes from, in SPIR-V
assembly: the id names are spirv-dis's (from OpName, `%Out_0` for a second `Out`) or the
raw `%<id>`, so every instruction named is, id for id, one that spirv-dis prints for the
same module."""

from __future__ import annotations

import base64
import json
import re
import subprocess
from pathlib import Path

import pytest
from spirv_helpers import assemble

from tosa_vkshader import check_paths, validate
from tosa_vkshader.spirv.validate import find_spirv_val

from conftest import FIXTURES

SPIRV_TOOLS = Path(find_spirv_val() or "spirv-val").parent  # spirv-dis and spirv-as beside it


def _op(name: str, **changes) -> dict:
    return {**json.loads((FIXTURES / "spirv" / "valid" / f"{name}.json").read_text()),
            **changes}


def _instruction(attrs: dict, code: str) -> str:
    [diag] = [d for d in validate(attrs).diagnostics if d.code == code]
    assert diag.shader_place is not None and diag.shader_position is None
    return diag.shader_place.instruction


def _disassembly(module: bytes, *flags: str) -> list[str]:
    done = subprocess.run([str(SPIRV_TOOLS / "spirv-dis"), "-", "-o", "-", *flags],
                          input=module, capture_output=True, check=True, timeout=60)
    return [" ".join(line.split()) for line in done.stdout.decode().splitlines()]


def assert_spirv_dis_prints(instruction: str, attrs: dict) -> None:
    """The instruction (less its `; values` comment) is a line of spirv-dis's disassembly
    once every name is turned into the raw id spirv-dis gives it."""
    module = base64.b64decode(attrs["shader_code"])
    raw_id = {}  # spirv-dis's name of an id -> the raw id, from the two disassemblies
    for named, raw in zip(_disassembly(module), _disassembly(module, "--raw-id"),
                          strict=True):
        for name, number in zip(re.findall(r"%\w+", named), re.findall(r"%\w+", raw),
                                strict=True):
            raw_id[name] = number
    body = instruction.partition(" ; ")[0]
    names = [n for n in re.findall(r"%\w+", body) if not n[1:].isdigit()]
    assert all(n in raw_id for n in names), (names, "not spirv-dis names")
    translated = re.sub(r"%\w+", lambda m: raw_id.get(m.group(), m.group()), body)
    assert translated in _disassembly(module, "--raw-id")


CASES = {
    # finding: (fixture, changes, rule, the instruction)
    "binding": ("copy_f32", {"output_0_binding": 2}, "VKS412", "OpDecorate %outp Binding 1"),
    "undeclared binding": ("copy_f32", {"output_0_binding": 2}, "VKS413",
                           "OpDecorate %outp Binding 1"),
    "storage class": ("copy_f32",
                      {"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER"},
                      "VKS414", "%inp = OpVariable %28 StorageBuffer"),
    "readonly member": ("copy_f32", {"output_0_binding": 0}, "VKS418",
                        "OpMemberDecorate %Input 0 NonWritable"),
    "local size by id": ("copy_f32", {}, "VKS430",
                         "OpExecutionModeId %main LocalSizeId %7 %8 %8 ; 64 1 1"),
    "local size": ("two_entry_points", {}, "VKS430",
                   "OpExecutionMode %backward LocalSize 32 1 1"),
    "workgroup size built-in": ("workgroup_size_builtin", {"workgroup_sizes": [2, 2, 2]},
                                "VKS421", "OpDecorate %7 BuiltIn WorkgroupSize"),
    # HLSL names each resource's type and variable alike: the variable is the second
    "push constants": ("hlsl_push", {"push_constants": "Alpha: 4"}, "VKS422",
                       "%pc_0 = OpVariable %19 PushConstant"),
    "binding of a second name": ("hlsl_push", {"input_0_binding": 1}, "VKS417",
                                 "OpDecorate %Y_0 Binding 1"),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_instruction_a_finding_comes_from(case):
    fixture, changes, code, expected = CASES[case]
    attrs = _op(fixture, **changes)
    instruction = _instruction(attrs, code)
    assert instruction == expected
    assert_spirv_dis_prints(instruction, attrs)


def test_ops_that_share_a_module_each_get_the_instruction_of_their_own_finding(tmp_path):
    # The places of embedded SPIR-V are worked out once per module and shared by the ops
    # that carry it (shader/places.py): in one run, and in runs one after another, each
    # op's finding still names the instruction it comes from.
    chosen = [CASES[case] for case in ("binding", "storage class", "readonly member",
                                       "local size by id")]
    paths = []
    for k, (fixture, changes, _, _) in enumerate(chosen):
        paths.append(tmp_path / f"op{k}.json")
        paths[-1].write_text(json.dumps(_op(fixture, **changes)))
    for _ in range(2):
        for report, (_, _, code, expected) in zip(check_paths(paths), chosen, strict=True):
            [diag] = [d for d in report.diagnostics if d.code == code]
            assert diag.shader_place.instruction == expected, code
    for fixture, changes, code, expected in chosen:
        assert _instruction(_op(fixture, **changes), code) == expected


def test_local_size_id_values_are_the_reflected_local_size():
    [diag] = [d for d in validate(_op("multi_set", workgroup_sizes=[1, 1, 1])).diagnostics
              if d.code == "VKS421"]
    assert diag.shader_place.instruction.endswith(" ; 64 1 1")
    assert "x=64, y=1, z=1" in diag.message


FRAGMENT = """
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %shade "main"
               OpExecutionMode %shade OriginUpperLeft
               OpName %shade "shade"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %shade = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
"""


def test_a_fragment_entry_point_names_its_op_entry_point(tmp_path):
    module = assemble(FRAGMENT, tmp_path).read_bytes()
    attrs = {"entry_point": "main", "workgroup_sizes": [1, 1, 1],
             "shader_language": "SPIR-V", "shader_code": base64.b64encode(module).decode()}
    instruction = _instruction(attrs, "VKS411")
    assert instruction == 'OpEntryPoint Fragment %shade "main"'
    assert_spirv_dis_prints(instruction, attrs)
