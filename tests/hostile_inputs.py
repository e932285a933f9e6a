"""Hostile inputs for the fuzz suite and the web tests: Hypothesis strategies that build
attribute documents (with huge indices, control characters, lone surrogates, deep
nesting) and damaged SPIR-V."""

from __future__ import annotations

import base64
import json

from hypothesis import strategies as st

from conftest import FIXTURES

BASE = json.loads((FIXTURES / "valid" / "multi-resource.json").read_text())
SPIRV = base64.b64decode(json.loads(
    (FIXTURES / "valid" / "spec-spirv-example.json").read_text())["shader_code"])

HOSTILE_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["\n::error file=x,line=1::FAKE", "\x1b[2J", "\u202e", "\ud800", "\udfff",
                     "\x00", "%0A", "a" * 5000]),
)
INDEX = st.one_of(st.integers(0, 12), st.sampled_from(
    [99999999999, 10**19, 10**30, 2**64]), st.integers(0, 10**60))
NUMBER = st.one_of(st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                   st.sampled_from([1e29, -0.0, 1e308, 5e-324]))
FIELD = st.sampled_from(["binding", "descriptorset", "vkformat", "vkdescriptortype", "type",
                         "sampler", "stride"])
KEY = st.one_of(
    st.builds(lambda d, i, f: f"{d}_{i}_{f}", st.sampled_from(["input", "output"]),
              INDEX.map(str), FIELD),
    st.builds(lambda i: f"input_0x{i:x}_binding", INDEX),
    st.builds(lambda i: f"output{i}_binding", INDEX),
    HOSTILE_TEXT,
    st.sampled_from(["entry_point", "workgroup_sizes", "push_constants", "shader_code",
                     "shader_language"]),
)
VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBER, HOSTILE_TEXT,
              st.sampled_from(["VK_FORMAT_R32_SFLOAT", "VK_DESCRIPTOR_TYPE_TENSOR_ARM",
                               " " * 3000 + ":", "a: " + "9" * 5000, "Tensor"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(HOSTILE_TEXT, inner, max_size=3)),
    max_leaves=8,
)


@st.composite
def attribute_document(draw) -> bytes:
    attrs = dict(BASE)
    attrs.update(draw(st.dictionaries(KEY, VALUE, max_size=6)))
    if draw(st.booleans()):
        attrs.update({"shader_language": "SPIR-V",
                      "shader_code": base64.b64encode(draw(spirv_bytes())).decode()})
    text = json.dumps(attrs, indent=draw(st.sampled_from([None, 2])))  # \\u escapes
    depth = draw(st.sampled_from([0, 0, 70, 5000]))
    if depth:
        text = text[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}"
    return text.encode()


@st.composite
def spirv_bytes(draw) -> bytes:
    words = bytearray(SPIRV)
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(words) - 1))
        words[at] = draw(st.integers(0, 255))
    cut = draw(st.sampled_from([len(words), len(words) - 4, 20, 8]))
    return bytes(words[:cut])


