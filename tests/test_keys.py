from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tosa_vkshader.keys import KeyKind, KeyProblem, classify

FIELDS = ["vkformat", "vkdescriptortype", "type", "binding", "descriptorset", "sampler"]


@given(st.sampled_from(["input", "output"]), st.integers(0, 10**6), st.sampled_from(FIELDS))
def test_every_key_of_the_grammar_is_a_resource_key(direction, index, field):
    info = classify(f"{direction}_{index}_{field}")
    assert (info.kind, info.direction, info.index, info.field) == (
        KeyKind.RESOURCE, direction, index, field)


@pytest.mark.parametrize("key,problem,suggestion", [
    ("input_01_binding", KeyProblem.LEADING_ZERO, "input_1_binding"),
    ("output_007_vkformat", KeyProblem.LEADING_ZERO, "output_7_vkformat"),
    ("input_0_bindng", KeyProblem.MALFORMED_RESOURCE, "input_0_binding"),
    ("Input_0_binding", KeyProblem.MALFORMED_RESOURCE, "input_0_binding"),
    ("inputs_0_binding", KeyProblem.MALFORMED_RESOURCE, "input_0_binding"),
    ("input0_binding", KeyProblem.MALFORMED_RESOURCE, "input_0_binding"),
    ("input-0-binding", KeyProblem.MALFORMED_RESOURCE, "input_0_binding"),
    ("input_0_descriptor_set", KeyProblem.MALFORMED_RESOURCE, "input_0_descriptorset"),
    ("output_2_format", KeyProblem.MALFORMED_RESOURCE, "output_2_vkformat"),
    ("input__binding", KeyProblem.BAD_INDEX, None),
    ("input_-1_binding", KeyProblem.BAD_INDEX, None),
    ("input_0x1_binding", KeyProblem.BAD_INDEX, "input_1_binding"),
    ("input_1٣_binding", KeyProblem.BAD_INDEX, None),
    ("entrypoint", KeyProblem.TOP_LEVEL_TYPO, "entry_point"),
    ("entryPoint", KeyProblem.TOP_LEVEL_TYPO, "entry_point"),
    ("workgroup_size", KeyProblem.TOP_LEVEL_TYPO, "workgroup_sizes"),
    ("push_constant", KeyProblem.TOP_LEVEL_TYPO, "push_constants"),
])
def test_near_misses_are_diagnosed_with_the_fix(key, problem, suggestion):
    info = classify(key)
    assert info.kind is KeyKind.NEAR_MISS
    assert info.problem is problem
    assert info.suggestion == suggestion


@pytest.mark.parametrize("key,kind", [
    ("entry_point", KeyKind.TOP_LEVEL),
    ("is_vkshader", KeyKind.EXTENSION),
    ("input_0_stride", KeyKind.RESOURCE_UNKNOWN_FIELD),
    ("author", KeyKind.UNKNOWN),
    ("input_shape", KeyKind.UNKNOWN),
])
def test_other_keys_are_kept(key, kind):
    assert classify(key).kind is kind


@given(st.text(max_size=40))
def test_classify_never_raises(key):
    assert classify(key).key == key
