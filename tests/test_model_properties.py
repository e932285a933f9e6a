"""Properties of the model readers: positions survive any escaping, no input crashes them."""

from __future__ import annotations

import json
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from tosa_vkshader import Options, validate

from conftest import FIXTURES

sys.path.insert(0, str(FIXTURES / "models"))
import build  # noqa: E402

# Any text a JSON string can hold (lone surrogates cannot be UTF-8 encoded in a file).
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
BAD_KEY = "input_01_binding"


def _attrs(comment: str) -> dict:
    return {"comment": comment, "entry_point": "main", "workgroup_sizes": [1, 1, 1],
            BAD_KEY: 0}


def _key_at(text: str, report, quoted: str) -> None:
    diag = next(d for d in report.diagnostics if d.code == "VKS111")
    line = text.split("\n")[diag.location.line - 1]  # our lines end at \n only
    assert line[diag.location.column - 1:].startswith(quoted), (diag, line)


@given(TEXT, st.booleans(), st.booleans())
def test_mlir_positions_survive_any_escaping(comment, pretty_json, hand_escaped):
    json_text = json.dumps(_attrs(comment), ensure_ascii=False, indent=1 if pretty_json
                           else None)
    if hand_escaped:  # the way people write it: \" and \\ and \n, other characters raw
        literal = '"' + json_text.replace("\\", "\\\\").replace('"', '\\"') \
            .replace("\n", "\\n").replace("\t", "\\t") + '"'
        quoted = f'\\"{BAD_KEY}\\"'
    else:  # the way tosa-opt prints it: \22, \0A and UTF-8 bytes as \XX
        literal = build.mlir_string(json_text)
        quoted = f"\\22{BAD_KEY}\\22"
    text = ('%0 = tosa.custom %x {domain_name = "com.arm.VulkanCustomShader", '
            f'operator_name = "k", implementation_attrs = {literal}}} '
            ": (tensor<1xf32>) -> tensor<1xf32>\n")
    report = validate(text, Options(select=("VKS111",)), path="m.mlir")
    _key_at(text, report, quoted)
    # The end is mapped too, whether the escapes all stand for ASCII characters (the
    # one-step map) or some form UTF-8 sequences (the general walk).
    location = report.diagnostics[0].location
    assert (location.end_line, location.end_column) == (location.line,
                                                        location.column + len(quoted))


@given(TEXT, st.booleans())
def test_json_string_positions_survive_any_escaping(comment, ascii_only):
    attrs_text = json.dumps(_attrs(comment), ensure_ascii=False)
    text = json.dumps({"domain_name": "com.arm.VulkanCustomShader", "operator_name": "k",
                       "implementation_attrs": attrs_text}, ensure_ascii=ascii_only)
    report = validate(text, Options(select=("VKS111",)), path="op.json")
    _key_at(text, report, f'\\"{BAD_KEY}\\"')


MLIR_PIECES = st.sampled_from([
    "tosa.custom", '"tosa.custom"', "%x", "%", ",", "{", "}", "<{", "}>", "(", ")", "->", ":",
    " ", "\n", "//", '"', "\\", "\\22", "\\q", "\\FF", "=", "domain_name",
    '"com.arm.VulkanCustomShader"', "implementation_attrs", '"{}"', '"{\\22entry_point\\22"',
    "operator_name", '"k"', "tensor<1x?xf32>", "tensor<*xi8>", "!tosa.shape<2>", "loc(#l)",
    "tensor<", ">", "[", "]", "42 : i32", "unit",
])


@settings(max_examples=300)
@given(st.lists(MLIR_PIECES, max_size=60).map("".join))
def test_any_mlir_like_text_is_reported_never_raised(text):
    validate(text, path="m.mlir")


@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=8))
def test_damaged_tosa_files_are_reported_never_raised(flips):
    data = bytearray((FIXTURES / "models" / "generic.tosa").read_bytes())
    for position, value in flips:
        data[position % len(data)] = value
    validate(bytes(data), path="m.tosa")  # a flatbuffer has no checksum: damage may pass


_ANY = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda c: st.lists(c, max_size=3) | st.dictionaries(
                        st.text(max_size=5), c, max_size=3), max_leaves=8)
_OP_FIELDS = {
    "domain_name": st.sampled_from(["com.arm.VulkanCustomShader", "com.arm.vulkancustomshader",
                                    "other"]) | _ANY,
    "operator_name": st.sampled_from(["k", "", " "]) | _ANY,
    "inputs": st.lists(st.sampled_from(["tensor<1x8xf32>", "tensor<*xi8>", "tensor<?xbf16>",
                                        "tensor<", "!tosa.shape<3>", "x"]), max_size=3) | _ANY,
    "outputs": st.lists(st.sampled_from(["tensor<4xi1>", "tensor<2x2xui8>", ""]),
                        max_size=3) | _ANY,
    "implementation_attrs": st.sampled_from([
        {"entry_point": "main", "workgroup_sizes": [1, 1, 1]},
        '{"entry_point": "main", "workgroup_sizes": [1, 1, 1], "input_0_binding": 0}',
        '{"entry_point": ', "[]", ""]) | _ANY,
}


@given(st.lists(st.fixed_dictionaries({"implementation_attrs": _OP_FIELDS[
    "implementation_attrs"]}, optional={k: v for k, v in _OP_FIELDS.items()
                                        if k != "implementation_attrs"}), max_size=3)
       .map(lambda ops: ops[0] if len(ops) == 1 else ops))
def test_any_op_object_or_list_is_reported_never_raised(value):
    report = validate(json.dumps(value, indent=1), path="ops.json")
    for diag in report.diagnostics:
        assert diag.location is not None and diag.location.line >= 1
