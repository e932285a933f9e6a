"""Acceptance: our reflection agrees with Debian's ``spirv-cross --reflect`` on every fixture.

Compared: descriptor sets, bindings, descriptor types, array sizes, local size (values, or
SpecIds where spirv-cross reports them) and push-constant block size.

Where spirv-cross cannot be the oracle, the test says so and uses another independent one:

* SPV_ARM_tensors modules: Debian's spirv-cross (2022) throws on OpTypeTensorARM. The
  expectation is then read from the .spvasm source text (DescriptorSet/Binding decorations,
  the LocalSize execution mode), and the test asserts spirv-cross still fails, so it will
  start comparing once spirv-cross learns tensors.
* LocalSizeId with literal constants (glslc for Vulkan 1.3): this spirv-cross reports 0.
  The expected size is then read from the GLSL source's local_size_x/y/z layout.
* Entry points other than the first: this spirv-cross reports local sizes per entry point
  but resources only for the first one, whatever --entry says. For the others, the
  expected bindings are those of the entry point's interface in the .spvasm source.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess

import pytest
from spirv_helpers import SHADERS, all_modules, module_bytes

from tosa_vkshader.spirv import read_module, reflect


def test_spirv_cross_is_installed():
    assert shutil.which("spirv-cross"), "scripts/bootstrap.sh installs it: apt install spirv-cross"

P = "VK_DESCRIPTOR_TYPE_"
CATEGORY = {"ssbos": "STORAGE_BUFFER", "ubos": "UNIFORM_BUFFER",
            "textures": "COMBINED_IMAGE_SAMPLER", "separate_images": "SAMPLED_IMAGE",
            "separate_samplers": "SAMPLER", "images": "STORAGE_IMAGE",
            "subpass_inputs": "INPUT_ATTACHMENT",
            "acceleration_structures": "ACCELERATION_STRUCTURE_KHR"}
TEXEL = {"SAMPLED_IMAGE": "UNIFORM_TEXEL_BUFFER", "STORAGE_IMAGE": "STORAGE_TEXEL_BUFFER",
         "COMBINED_IMAGE_SAMPLER": "UNIFORM_TEXEL_BUFFER"}
SCALAR_SIZE = {"float": 4, "int": 4, "uint": 4, "bool": 4, "double": 8, "half": 2,
               "float16_t": 2, "int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2,
               "int64_t": 8, "uint64_t": 8}
VECTOR_SCALAR = {"": 4, "i": 4, "u": 4, "b": 4, "d": 8, "f16": 2, "i8": 1, "u8": 1,
                 "i16": 2, "u16": 2, "i64": 8, "u64": 8}


def spirv_cross(name: str, entry: str | None = None) -> subprocess.CompletedProcess:
    command = ["spirv-cross", str(SHADERS / f"{name}.spv"), "--reflect"]
    if entry:
        command += ["--entry", entry]
    return subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)


def _type_size(name: str, types: dict) -> int:
    if name in SCALAR_SIZE:
        return SCALAR_SIZE[name]
    if name in types:  # a struct: the end of its last member
        return max(_member_end(m, types) for m in types[name]["members"])
    match = re.fullmatch(r"(f16|i8|u8|i16|u16|i64|u64|[ibud]?)vec(\d)", name)
    if match:
        return VECTOR_SCALAR[match.group(1)] * int(match.group(2))
    raise AssertionError(f"unknown spirv-cross type {name!r}")


def _member_end(member: dict, types: dict) -> int:
    name = member["type"]
    matrix = re.fullmatch(r"d?mat(\d)(?:x(\d))?", name)
    if matrix:
        size = int(matrix.group(1)) * member["matrix_stride"]
    else:
        size = _type_size(name, types)
    if "array" in member:
        size = math.prod(member["array"]) * member["array_stride"]
    return member["offset"] + size


def cross_bindings(data: dict) -> dict[tuple[int, int], tuple[str, int]]:
    found = {}
    for category, dtype in CATEGORY.items():
        for res in data.get(category, []):
            kind = TEXEL.get(dtype, dtype) if "Buffer" in res["type"] else dtype
            count = math.prod(res.get("array", [1]))
            found[(res["set"], res["binding"])] = (P + kind, count)
    return found


def glsl_local_size(name: str) -> list[int]:
    source = (SHADERS / f"{name}.comp").read_text()
    sizes = []
    for axis in "xyz":
        match = re.search(rf"local_size_{axis}\s*=\s*(\d+)", source)
        sizes.append(int(match.group(1)) if match else 1)
    return sizes


def assembly_decorations(source: str) -> dict[str, dict[str, int]]:
    decorations: dict[str, dict[str, int]] = {}
    for var, what, value in re.findall(r"OpDecorate %(\w+) (DescriptorSet|Binding) (\d+)",
                                       source):
        decorations.setdefault(var, {})[what] = int(value)
    return decorations


def assembly_interface_bindings(name: str, entry: str) -> set[tuple[int, int]]:
    source = (SHADERS / f"{name}.spvasm").read_text()
    interface = re.search(rf'OpEntryPoint \w+ %\w+ "{entry}"((?: %\w+)*)', source).group(1)
    decorations = assembly_decorations(source)
    names = [v.lstrip("%") for v in interface.split()]
    return {(decorations[v]["DescriptorSet"], decorations[v]["Binding"])
            for v in names if v in decorations}


def ours(name: str, entry: str | None):
    module, diagnostics = read_module(module_bytes(name))
    assert diagnostics == []
    return reflect(module, entry)


def entry_points(name: str) -> list[str]:
    module, _ = read_module(module_bytes(name))
    return [e.name for e in module.entry_points]


CASES = [(n, e) for n in all_modules() if not n.startswith("tensor_")
         for e in entry_points(n)]
TENSOR_CASES = [n for n in all_modules() if n.startswith("tensor_")]


@pytest.mark.parametrize("name, entry", CASES)
def test_agrees_with_spirv_cross(name, entry):
    proc = spirv_cross(name, entry)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    r = ours(name, entry)

    mine = {(b.set, b.binding): (b.descriptor_type, b.count) for b in r.bindings}
    if entry == entry_points(name)[0]:
        assert mine == cross_bindings(data)
    else:
        assert set(mine) == assembly_interface_bindings(name, entry)

    ep = next(e for e in data["entryPoints"] if e["name"] == entry)
    for axis, (size, is_spec) in enumerate(zip(ep["workgroup_size"],
                                               ep["workgroup_size_is_spec_constant_id"],
                                               strict=True)):
        if is_spec:
            assert r.local_size.spec_ids[axis] == size, ("SpecId", axis)
        elif size == 0 and r.local_size.source == "LocalSizeId":
            assert r.local_size.values[axis] == glsl_local_size(name)[axis], axis
        else:
            assert r.local_size.values[axis] == size, axis

    blocks = data.get("push_constants", [])
    assert len(blocks) == (1 if r.push_constants else 0)
    if blocks:
        assert r.push_constants.size == _type_size(blocks[0]["type"], data["types"])


@pytest.mark.parametrize("name", TENSOR_CASES)
def test_tensor_modules_agree_with_their_assembly(name):
    proc = spirv_cross(name)
    assert proc.returncode != 0 or "exception" in (proc.stderr + proc.stdout).lower(), \
        "spirv-cross now reads SPV_ARM_tensors: compare against it like the other modules"
    source = (SHADERS / f"{name}.spvasm").read_text()
    decorations = assembly_decorations(source)
    tensor_types = set(re.findall(r"%(\w+) = OpTypeTensorARM", source))
    arrays = dict(re.findall(r"%(\w+) = OpTypeArray %(\w+) %\w+", source))
    pointers = {ptr: pointee for ptr, pointee in
                re.findall(r"%(\w+) = OpTypePointer UniformConstant %(\w+)", source)}
    variables = dict(re.findall(r"%(\w+) = OpVariable %(\w+) UniformConstant", source))
    expected_tensors = set()
    for var, pointer in variables.items():
        pointee = pointers[pointer]
        if pointee in tensor_types or arrays.get(pointee) in tensor_types:
            expected_tensors.add((decorations[var]["DescriptorSet"],
                                  decorations[var]["Binding"]))
    r = ours(name, None)
    mine = {(b.set, b.binding) for b in r.bindings if b.descriptor_type == P + "TENSOR_ARM"}
    assert mine == expected_tensors
    declared = {(d["DescriptorSet"], d["Binding"]) for d in decorations.values()}
    assert {(b.set, b.binding) for b in r.bindings} == declared
    local = re.search(r"OpExecutionMode %\w+ LocalSize (\d+) (\d+) (\d+)", source)
    assert list(r.local_size.values) == [int(v) for v in local.groups()]


def test_every_fixture_is_compared():
    assert len({n for n, _e in CASES}) + len(TENSOR_CASES) == len(all_modules()) >= 30
