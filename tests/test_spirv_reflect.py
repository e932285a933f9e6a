"""Reflection of the fixture shaders, checked against facts read from their sources."""

from __future__ import annotations

import json

import pytest
from spirv_helpers import module_bytes

from tosa_vkshader.spirv import read_module, reflect

P = "VK_DESCRIPTOR_TYPE_"


def reflected(name: str, entry: str | None = None):
    module, diagnostics = read_module(module_bytes(name))
    assert diagnostics == []
    return reflect(module, entry)


def table(name: str, entry: str | None = None) -> dict[tuple[int, int], tuple]:
    return {(b.set, b.binding): (b.descriptor_type.removeprefix(P), b.count, b.access)
            for b in reflected(name, entry).bindings}


# (set, binding) -> (descriptor type, descriptor count, access by the entry point)
EXPECTED_BINDINGS = {
    "copy_f32": {(0, 0): ("STORAGE_BUFFER", 1, "read"), (0, 1): ("STORAGE_BUFFER", 1, "write")},
    "uniform_params": {(0, 0): ("UNIFORM_BUFFER", 1, "read"),
                       (0, 1): ("STORAGE_BUFFER", 1, "read"),
                       (0, 2): ("STORAGE_BUFFER", 1, "write")},
    "storage_image_rgba16f_rw": {(1, 3): ("STORAGE_IMAGE", 1, "read-write")},
    "combined_sampler": {(0, 0): ("COMBINED_IMAGE_SAMPLER", 1, "read"),
                         (0, 1): ("STORAGE_BUFFER", 1, "write")},
    "separate_sampler": {(0, 0): ("SAMPLED_IMAGE", 1, "read"), (0, 1): ("SAMPLER", 1, "none"),
                         (0, 2): ("STORAGE_IMAGE", 1, "write")},
    "uniform_texel_buffer": {(0, 0): ("UNIFORM_TEXEL_BUFFER", 1, "read"),
                             (0, 1): ("STORAGE_BUFFER", 1, "write")},
    "storage_texel_buffer": {(0, 0): ("UNIFORM_TEXEL_BUFFER", 1, "read"),
                             (0, 1): ("STORAGE_TEXEL_BUFFER", 1, "write")},
    "input_attachment": {(0, 0): ("INPUT_ATTACHMENT", 1, "none"),
                         (0, 1): ("STORAGE_BUFFER", 1, "write")},
    "ray_query": {(0, 0): ("ACCELERATION_STRUCTURE_KHR", 1, "none"),
                  (0, 1): ("STORAGE_BUFFER", 1, "write")},
    "buffer_array": {(0, 0): ("STORAGE_BUFFER", 4, "read"), (0, 1): ("STORAGE_BUFFER", 1, "write")},
    "image_array": {(0, 0): ("STORAGE_IMAGE", 6, "read"), (0, 1): ("STORAGE_BUFFER", 1, "write")},
    "bindless_textures": {(0, 0): ("STORAGE_BUFFER", 1, "read"), (0, 1): ("SAMPLER", 1, "none"),
                          (1, 0): ("SAMPLED_IMAGE", 0, "read"),
                          (0, 2): ("STORAGE_BUFFER", 1, "write")},
    "atomic_histogram": {(0, 0): ("STORAGE_BUFFER", 1, "read"),
                         (0, 1): ("STORAGE_BUFFER", 1, "read-write")},
    "helper_functions": {(0, 0): ("STORAGE_BUFFER", 1, "read"),
                         (0, 1): ("STORAGE_BUFFER", 1, "write"),
                         (0, 2): ("STORAGE_BUFFER", 1, "none")},
    "hlsl_cbuffer": {(0, 0): ("UNIFORM_BUFFER", 1, "read"), (0, 1): ("STORAGE_BUFFER", 1, "read"),
                     (0, 2): ("STORAGE_BUFFER", 1, "write")},
    "hlsl_typed_buffers": {(0, 0): ("UNIFORM_TEXEL_BUFFER", 1, "read"),
                           (0, 1): ("STORAGE_TEXEL_BUFFER", 1, "write")},
    "hlsl_atomic": {(0, 0): ("STORAGE_BUFFER", 1, "read"),
                    (0, 1): ("STORAGE_BUFFER", 1, "read-write")},
    "tensor_copy_int8": {(0, 0): ("TENSOR_ARM", 1, "read"), (0, 1): ("TENSOR_ARM", 1, "write")},
    "tensor_array": {(0, 0): ("TENSOR_ARM", 3, "read"), (0, 1): ("TENSOR_ARM", 1, "write")},
    "tensor_to_buffer": {(0, 0): ("TENSOR_ARM", 1, "read"), (0, 1): ("STORAGE_BUFFER", 1, "write")},
    "tensor_query_only": {(0, 0): ("TENSOR_ARM", 1, "none"),
                          (0, 1): ("STORAGE_BUFFER", 1, "write")},
}


@pytest.mark.parametrize("name", sorted(EXPECTED_BINDINGS))
def test_descriptor_types_counts_and_access(name):
    assert table(name) == EXPECTED_BINDINGS[name]


def test_static_use_follows_the_call_graph():
    used = {b.binding: b.used for b in reflected("helper_functions").bindings}
    # binding 2 is only read by a helper that main never calls
    assert used == {0: True, 1: True, 2: False}


def test_tensor_handle_passed_to_a_function_is_read():
    r = reflected("tensor_to_buffer")
    tensor = r.binding(0, 0)
    assert (tensor.used, tensor.access, tensor.element_type, tensor.tensor_rank) == \
        (True, "read", "int8", 1)


def test_queried_tensor_is_used_but_neither_read_nor_written():
    probe = reflected("tensor_query_only").binding(0, 0)
    assert probe.used and probe.access == "none" and probe.element_type == "float16"


def test_tensor_shape_and_rank():
    lhs = reflected("tensor_add_f32").binding(0, 0)
    assert (lhs.tensor_rank, lhs.tensor_shape, lhs.element_type) == (2, (1, 64), "float32")
    assert lhs.writable and lhs.resource == "tensor"


def test_decorated_access_is_separate_from_code_access():
    r = reflected("copy_f32")
    inp, out = r.binding(0, 0), r.binding(0, 1)
    assert (inp.writable, inp.readable) == (False, True)  # readonly
    assert (out.writable, out.readable) == (True, False)  # writeonly
    uniform = reflected("uniform_params").binding(0, 0)
    assert not uniform.writable  # a uniform buffer can never be written


def test_hlsl_buffer_block_is_a_storage_buffer():
    r = reflected("hlsl_copy")
    assert r.spirv_version == "1.3"
    src = r.binding(0, 0)
    assert src.storage_class == "Uniform" and src.descriptor_type == P + "STORAGE_BUFFER"
    assert not src.writable


@pytest.mark.parametrize("name, element", [
    ("copy_f32", "float32"), ("add_i32", "int32"), ("int8_buffer", "int8"),
    ("fp16_buffer", "float16"), ("atomic_histogram", "uint32"), ("struct_buffer", "float32"),
    ("hlsl_cbuffer", "uint32"),
])
def test_buffer_element_type(name, element):
    buffers = [b for b in reflected(name).bindings if b.resource == "buffer"
               and b.descriptor_type == P + "STORAGE_BUFFER"]
    assert {b.element_type for b in buffers} == {element}


def test_uniform_block_with_mixed_members_has_no_single_element_type():
    assert reflected("uniform_params").binding(0, 0).element_type is None


@pytest.mark.parametrize("name, binding, spirv, vk", [
    ("storage_image_rgba8", 1, "Rgba8", "VK_FORMAT_R8G8B8A8_UNORM"),
    ("storage_image_r32f", 0, "R32f", "VK_FORMAT_R32_SFLOAT"),
    ("storage_image_rgba16f_rw", 3, "Rgba16f", "VK_FORMAT_R16G16B16A16_SFLOAT"),
    ("storage_image_r8i_3d", 1, "R8i", "VK_FORMAT_R8_SINT"),
    ("storage_texel_buffer", 1, "R32f", "VK_FORMAT_R32_SFLOAT"),
    ("combined_sampler", 0, "Unknown", None),
])
def test_image_formats_map_to_vk_formats(name, binding, spirv, vk):
    image = next(b for b in reflected(name).bindings if b.binding == binding)
    assert (image.image_format, image.vk_format) == (spirv, vk)


def test_image_dimension_and_sampled_type():
    image = reflected("storage_image_r8i_3d").binding(0, 1)
    assert (image.image_dim, image.element_type) == ("3D", "int32")


@pytest.mark.parametrize("name, values, spec_ids, source", [
    ("copy_f32", (64, 1, 1), (None, None, None), "LocalSizeId"),
    ("hlsl_cbuffer", (32, 2, 1), (None, None, None), "LocalSize"),
    ("tensor_array", (4, 4, 4), (None, None, None), "LocalSize"),
    ("spec_local_size", (1, 1, 1), (0, 1, 2), "LocalSizeId"),
    ("spec_local_size_x", (1, 2, 1), (3, None, None), "LocalSizeId"),
    ("workgroup_size_builtin", (32, 4, 1), (10, 11, None), "WorkgroupSize"),
])
def test_local_size(name, values, spec_ids, source):
    local = reflected(name).local_size
    assert (local.values, local.spec_ids, local.source) == (values, spec_ids, source)
    assert local.specializable == any(s is not None for s in spec_ids)


def test_spec_constants_with_defaults():
    specs = {(s.spec_id, s.name): s.default for s in reflected("spec_local_size").spec_constants}
    assert specs[(0, "WG_X")] == 8 and specs[(1, "WG_Y")] == 4


def test_push_constant_layout():
    pc = reflected("push_layout").push_constants
    assert pc.name == "pc" and pc.type_name == "Push" and pc.used
    assert [(m.name, m.offset, m.size) for m in pc.members] == [
        ("color", 0, 16), ("transform", 16, 64), ("extent", 80, 8), ("gain", 88, 4),
        ("flags", 92, 12)]
    assert pc.size == 104
    assert [m.type for m in pc.members][-1] == "uint32[3]"


def test_hlsl_push_constants():
    pc = reflected("hlsl_push").push_constants
    assert [(m.name, m.size) for m in pc.members] == [("Alpha", 4), ("Beta", 4), ("Length", 4)]
    assert pc.size == 12


def test_each_entry_point_sees_its_own_bindings():
    forward = reflected("two_entry_points", "forward")
    backward = reflected("two_entry_points", "backward")
    assert [b.binding for b in forward.bindings] == [0, 1]
    assert [b.binding for b in backward.bindings] == [2, 3]
    assert forward.local_size.values == (64, 1, 1)
    assert backward.local_size.values == (32, 1, 1)
    assert {e.name for e in forward.entry_points} == {"forward", "backward"}


def test_missing_entry_point():
    r = reflected("copy_f32", "mian")
    assert r.entry_point is None and r.local_size is None
    assert r.bindings and not any(b.used for b in r.bindings)


def test_to_dict_is_json_ready():
    data = reflected("tensor_add_f32").to_dict()
    text = json.dumps(data)
    assert json.loads(text)["bindings"][0]["descriptor_type"] == P + "TENSOR_ARM"
    assert data["push_constants"]["size"] == 8
