"""The pure-Python reader: headers, instruction stream, malformed input as diagnostics."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from spirv_helpers import all_modules, header, inst, module_bytes, to_bytes, words_of

from tosa_vkshader.spirv import read_module, reflect
from tosa_vkshader.spirv.grammar import OP

# Modules of every origin (glslc, HLSL, spirv-as) to mutate.
SEEDS = [module_bytes(n) for n in ("copy_f32", "hlsl_cbuffer", "tensor_to_buffer",
                                   "push_layout", "two_entry_points")]


def codes(diagnostics) -> set[str]:
    return {d.code for d in diagnostics}


def test_every_fixture_module_reads_without_diagnostics():
    for name in all_modules():
        module, diagnostics = read_module(module_bytes(name))
        assert module is not None and diagnostics == [], name
        assert module.complete and module.entry_points, name


def test_header_fields():
    module, _ = read_module(module_bytes("copy_f32"))
    assert module.version == (1, 6)
    assert module.generator >> 16 == 13  # Khronos tool id 13: Google Shaderc over Glslang
    assert module.bound > max(module.types)
    assert not module.byte_swapped


def test_big_endian_module_reads_the_same():
    data = module_bytes("hlsl_cbuffer")
    swapped = b"".join(data[i:i + 4][::-1] for i in range(0, len(data), 4))
    module, diagnostics = read_module(swapped)
    assert diagnostics == [] and module.byte_swapped
    original, _ = read_module(data)
    assert reflect(module, "CSMain") == reflect(original, "CSMain")
    assert module.names == original.names  # strings decoded in the right byte order


def test_not_spirv():
    for data, fragment in ((b"#version 460\nvoid main(){}\n\n\n\n\n\n", "magic"),
                           (b"\x03\x02\x23\x07", "shorter than the 20-byte header"),
                           (module_bytes("copy_f32")[:-2], "multiple of 4")):
        module, diagnostics = read_module(data, "/shader_code")
        assert module is None
        assert codes(diagnostics) == {"VKS400"}
        assert fragment in diagnostics[0].message
        assert diagnostics[0].pointer == "/shader_code"


def test_unknown_version_and_schema_are_reported_but_reading_goes_on():
    words = words_of(module_bytes("copy_f32"))
    words[1], words[4] = 0x00020000, 7
    module, diagnostics = read_module(to_bytes(words))
    assert module is not None and module.entry_points
    assert codes(diagnostics) == {"VKS400"}
    assert len(diagnostics) == 2


def test_zero_word_count_stops_reading():
    words = header() + inst(OP["OpCapability"], 1) + [0] + inst(OP["OpCapability"], 2)
    module, diagnostics = read_module(to_bytes(words))
    assert codes(diagnostics) == {"VKS401"}
    assert "word count 0" in diagnostics[0].message
    assert module.capabilities == [1] and not module.complete


def test_truncated_instruction():
    words = header() + inst(OP["OpCapability"], 1) + [(9 << 16) | OP["OpName"], 5]
    module, diagnostics = read_module(to_bytes(words))
    assert codes(diagnostics) == {"VKS401"}
    assert "declares 9 words but only 2 remain" in diagnostics[0].message


def test_huge_word_count_in_a_real_module():
    words = words_of(module_bytes("conv2d_large"))
    words[5] = (0xFFFF << 16) | (words[5] & 0xFFFF)
    # No wall-clock limit (a loaded machine misses any): a reader that trusted the word
    # count would run off the end and fail differently, or not finish at all.
    _module, diagnostics = read_module(to_bytes(words))
    assert codes(diagnostics) == {"VKS401"}


def test_ids_beyond_the_bound():
    words = header(bound=10) + inst(OP["OpTypeVoid"], 12) + inst(OP["OpTypeBool"], 0)
    module, diagnostics = read_module(to_bytes(words))
    assert codes(diagnostics) == {"VKS402"}
    assert len(diagnostics) == 2 and "%12" in diagnostics[0].message
    assert module.types == {}


def test_many_bad_ids_are_summarised():
    words = header(bound=2) + sum((inst(OP["OpTypeVoid"], 50 + i) for i in range(20)), [])
    _module, diagnostics = read_module(to_bytes(words))
    assert len(diagnostics) == 4 and "17 more ids" in diagnostics[-1].message


def test_implausible_bound():
    _module, diagnostics = read_module(to_bytes(header(bound=0xFFFFFFFF)))
    assert codes(diagnostics) == {"VKS402"}


def test_type_cycle_and_dangling_type_are_reported():
    # %3 = array of %4 (not yet declared); %4 = struct { %3 }: a cycle through ids.
    words = (header() + inst(OP["OpTypeInt"], 2, 32, 0) + inst(OP["OpConstant"], 2, 5, 4)
             + inst(OP["OpTypeArray"], 3, 4, 5) + inst(OP["OpTypeStruct"], 4, 3)
             + inst(OP["OpTypeVector"], 6, 99, 4))
    module, diagnostics = read_module(to_bytes(words))
    assert codes(diagnostics) == {"VKS403"}
    assert len(diagnostics) == 3  # %3 -> %4, %4 -> %3 (dropped), %6 -> %99
    assert set(module.types) == {2}


def test_redefined_type_is_ignored():
    words = (header() + inst(OP["OpTypeInt"], 2, 32, 0) + inst(OP["OpTypeFloat"], 2, 32))
    module, diagnostics = read_module(to_bytes(words))
    assert codes(diagnostics) == {"VKS403"} and module.types[2].kind == "int"


def test_forward_pointer_allows_recursive_structs():
    storage = 5349  # PhysicalStorageBuffer
    words = (header() + inst(OP["OpTypeForwardPointer"], 3, storage)
             + inst(OP["OpTypeInt"], 2, 32, 0) + inst(OP["OpTypeStruct"], 4, 2, 3)
             + inst(OP["OpTypePointer"], 3, storage, 4))
    module, diagnostics = read_module(to_bytes(words))
    assert diagnostics == []
    assert module.types[4].members == (2, 3) and module.types[3].element == 4


def test_too_short_instructions_for_their_opcode():
    words = header() + inst(OP["OpTypeImage"], 3, 2) + inst(OP["OpDecorate"], 5)
    module, diagnostics = read_module(to_bytes(words))
    assert codes(diagnostics) == {"VKS401"} and len(diagnostics) == 2
    assert module.types == {} and module.decorations == {}


def _check_robust(data: bytes) -> None:
    module, diagnostics = read_module(data)
    if module is not None:
        for ep in [None, *[e.name for e in module.entry_points]]:
            reflect(module, ep).to_dict()
    assert all(d.code.startswith("VKS40") for d in diagnostics)


@given(st.sampled_from(SEEDS), st.integers(min_value=0, max_value=10**6))
def test_truncated_modules_never_raise(seed, cut):
    _check_robust(seed[: cut % (len(seed) + 1)])


@given(st.sampled_from(SEEDS), st.lists(st.integers(min_value=0), min_size=1, max_size=8))
def test_bit_flipped_modules_never_raise(seed, flips):
    data = bytearray(seed)
    for flip in flips:
        bit = flip % (len(data) * 8)
        data[bit // 8] ^= 1 << (bit % 8)
    _check_robust(bytes(data))


@given(st.lists(st.integers(min_value=0, max_value=2**32 - 1), max_size=200),
       st.booleans())
def test_random_word_streams_never_raise(words, with_header):
    prefix = header(bound=64) if with_header else []
    _check_robust(to_bytes(prefix + words))


@given(st.sampled_from(SEEDS), st.integers(min_value=0, max_value=2**32 - 1),
       st.integers(min_value=0))
def test_random_word_replacement_never_raises(seed, value, where):
    words = words_of(seed)
    words[5 + where % (len(words) - 5)] = value
    _check_robust(to_bytes(words))


def test_instruction_shuffles_never_raise():
    rng = random.Random(1234)
    words = words_of(module_bytes("tensor_to_buffer"))
    body = []
    i = 5
    while i < len(words):
        count = words[i] >> 16
        body.append(words[i:i + count])
        i += count
    for _ in range(50):
        rng.shuffle(body)
        _check_robust(to_bytes(words[:5] + [w for ins in body for w in ins]))


def test_deeply_shared_struct_types_reflect_in_linear_time():
    # S1 holds 2000 floats, S2 holds 2000 S1, ... : 2000**4 paths, 4 distinct types.
    n = 2000
    words = header(bound=200) + inst(OP["OpCapability"], 1)
    words += inst(OP["OpMemoryModel"], 0, 1)
    words += inst(OP["OpEntryPoint"], 5, 20, *_name("main"), 30)
    words += inst(OP["OpExecutionMode"], 20, 17, 1, 1, 1)
    words += inst(OP["OpDecorate"], 14, 2)  # Block
    words += inst(OP["OpDecorate"], 30, 34, 0) + inst(OP["OpDecorate"], 30, 33, 0)
    words += inst(OP["OpTypeVoid"], 2) + inst(OP["OpTypeFunction"], 3, 2)
    words += inst(OP["OpTypeFloat"], 10, 32)
    for level in range(11, 15):
        words += inst(OP["OpTypeStruct"], level, *([level - 1] * n))
    words += inst(OP["OpTypePointer"], 15, 12, 14)  # StorageBuffer
    words += inst(OP["OpVariable"], 15, 30, 12)
    words += inst(OP["OpFunction"], 2, 20, 0, 3) + inst(OP["OpLabel"], 21)
    words += inst(OP["OpReturn"]) + inst(OP["OpFunctionEnd"])
    # Shared struct types are walked once each: an exponential walk would not finish.
    module, diagnostics = read_module(to_bytes(words))
    r = reflect(module, "main")
    assert diagnostics == [] and r.bindings[0].element_type == "float32"


def _name(text: str) -> list[int]:
    raw = text.encode() + b"\0" * (4 - len(text) % 4)
    return list(int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw), 4))
