"""Where diagnostics land in JSON text: the locator scans only the objects on the way to a
pointer, so these pin it on the shapes that make that hard (nested lists of ops, keys
that need pointer escapes, duplicates deep down, minified text, values spanning lines)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from tosa_vkshader import validate
from tosa_vkshader.diagnostics import pointer_join
from tosa_vkshader.sources.jsontext import (
    JsonDocument,
    parse_json,
    pretty_document,
    pretty_json,
    rendered_document,
)

from conftest import FIXTURES

# A plain op without shader code (nothing is compiled): input_0 and output_0 tensors.
BASE = json.loads((FIXTURES / "valid" / "tensor-op.json").read_text())


def _place(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the ``occurrence``-th ``needle`` in ``text``."""
    offset = -1
    for _ in range(occurrence + 1):
        offset = text.index(needle, offset + 1)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _find(report, code: str):
    found = [d for d in report.diagnostics if d.code == code]
    assert found, f"no {code} in {[d.code for d in report.diagnostics]}"
    return found[0]


def test_a_misspelled_key_in_the_third_op_of_a_list_is_placed_on_that_key():
    ops = [dict(BASE), dict(BASE), {**BASE, "input_01_binding": 0}]
    del ops[2]["input_0_binding"]
    text = json.dumps(ops, indent=1)
    diag = _find(validate(text, path="ops.json"), "VKS111")  # the leading zero
    assert (diag.location.line, diag.location.column) == _place(text, '"input_01_binding"')


def test_a_wrong_value_in_minified_text_is_placed_on_the_value():
    text = json.dumps({**BASE, "output_0_binding": "one"}, separators=(",", ":"))
    diag = [d for d in validate(text, path="op.json").diagnostics
            if d.pointer == "/output_0_binding"][0]
    assert diag.location.line == 1
    assert diag.location.column == _place(text, '"one"')[1]


def test_an_array_element_is_placed_on_that_element():
    text = json.dumps({**BASE, "workgroup_sizes": [1, -4, 1]}, indent=2)
    diag = [d for d in validate(text, path="op.json").diagnostics
            if d.pointer == "/workgroup_sizes/1"]
    assert diag, [d.pointer for d in validate(text, path="op.json").diagnostics]
    assert (diag[0].location.line, diag[0].location.column) == _place(text, "-4")


def test_keys_that_need_pointer_escapes_are_found():
    document, problems = parse_json('{"a/b": {"~x": [10, {"y": 20}]}, "z": 30}')
    assert problems == []
    span = document.span("/a~1b/~0x/1/y")
    assert document.text[span.value_start:span.value_end] == "20"
    assert document.text[span.key_start:span.key_end] == '"y"'
    assert document.span("/a~1b/~0x/2") is None
    assert document.span("/nothing/below") is None


def test_duplicates_are_found_at_every_depth():
    text = '{"a": [{"k": 1, "k": 2}], "b": {"c": {"d": 1, "d": 2}}, "a": 0}'
    _, problems = parse_json(text, "dup.json")
    assert sorted((p.code, p.pointer) for p in problems) == [
        ("VKS103", "/a"), ("VKS103", "/a/0/k"), ("VKS103", "/b/c/d")]


def test_the_last_of_duplicated_keys_is_the_one_located():
    text = '{\n "entry_point": 5,\n "entry_point": 7\n}'
    document, _ = parse_json(text)
    span = document.span("/entry_point")
    assert text[span.value_start:span.value_end] == "7"


def test_long_numbers_and_surrogates_are_still_caught_without_a_walk_of_every_file():
    for text, code in (('{"note": 1e400}', "VKS121"), ('{"x": [1' + "0" * 400 + "]}", "VKS121"),
                       ('{"note": "\\ud800"}', "VKS120"), ('{"\\uDC01": 1}', "VKS120")):
        _, problems = parse_json(text)
        assert [p.code for p in problems] == [code], text
    for text in ('{"n": 18446744073709551615}', '{"n": -9223372036854775808}',
                 '{"n": 1e308}', '{"s": "\\u00e9 \\ud83d\\ude00"}'):
        assert parse_json(text)[1] == [], text


def test_a_parsed_object_is_shown_as_json_prints_it_with_indent_2():
    # Diagnostics on a dict (the API, the web's {"attributes": ...}) point into this
    # rendering: it must stay exactly json.dumps(indent=2)'s, whatever the values are.
    from tosa_vkshader.sources.jsontext import pretty_json

    values = [{}, [], {"a": [1, 2.5, -0.0, None, True, "é\n\"\\"], "b": {"c": []}},
              {"x": float("nan")}, {1: "int key"}, [(1, 2), {"y": 1e300}], "\ud800",
              {"nested": [[[{"deep": [1]}]]]}, 2**80, {"obj": object},
              # long strings (base64 is written as it is, unless a character needs more)
              *({"code": "QUJD/+09" * 40 + tail} for tail in
                ("", '"', "\\", "\x1f", "\x7f", "\n", "é", "\ud800", "\u2028"))]
    for value in values:
        assert pretty_json(value) == json.dumps(value, indent=2, ensure_ascii=False,
                                                default=repr), value


def test_members_are_found_in_any_order_when_the_scan_stops_at_each_one_asked_for():
    text = '{"a": 1, "b": {"x": [5, 6]}, "c": "three", "d": null, "e": [7]}'
    document, problems = parse_json(text)
    assert problems == [] and document.has_duplicates is False
    for pointer, shown in (("/c", '"three"'), ("/a", "1"), ("/e/0", "7"), ("/b/x/1", "6"),
                           ("/d", "null"), ("/b", '{"x": [5, 6]}')):
        span = document.span(pointer)
        assert text[span.value_start:span.value_end] == shown, pointer
    assert document.span("/zz") is None and document.span("/b/y") is None
    assert document.span("/c") is not None  # still known after the failed lookups


def test_a_container_looked_into_is_placed_whole_when_asked_for_later():
    # A scan that stops at an object or array to look inside leaves its end to be found
    # when something asks for the container itself, or for a member after it.
    text = '[{"op": {"k": [1, {"z": 2}], "m": 3}, "after": 4}, {"op": {}}]'
    for order in (["/0/op/k/1/z", "/0/op", "/0/after", "/1/op", "/0", "/1", ""],
                  ["/1/op", "/0/op/m", "/0/op/k", "/0/op/k/1"]):
        document, _ = parse_json(text)
        for pointer in order:
            span = document.span(pointer)
            value = json.loads(text)
            for token in pointer.split("/")[1:]:
                value = value[int(token) if isinstance(value, list) else token]
            assert json.loads(text[span.value_start:span.value_end]) == value, pointer


def test_every_line_is_shown_as_it_is_in_the_text_near_the_top_and_far_down():
    # Lines near the top are found without an index of every line, lines further down
    # with one; in either order, both give the text's own lines, \r\n endings included.
    lines = [f'  "key_{k}": {k},' for k in range(150)]
    text = "{\r\n" + "\r\n".join(lines) + '\r\n  "last": 0\r\n}'
    document, problems = parse_json(text, "lines.json")
    assert document is not None and not problems
    expected = text.split("\r\n")
    asked = [3, 1, 2, 64, 65, 150, 2, len(expected), len(expected) + 1, 0, 300, 5]
    for line in asked:
        wanted = expected[line - 1] if 1 <= line <= len(expected) else ""
        assert document.line_text(line) == wanted, line
    short, _ = parse_json('{"a": 1}', "one.json")
    assert (short.line_text(1), short.line_text(2)) == ('{"a": 1}', "")


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(
    st.text(max_size=6),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8)
                 | st.floats(allow_nan=False, allow_infinity=False),
                 lambda inner: st.lists(inner, max_size=3)
                 | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=8),
    max_size=6))
def test_a_rendered_object_places_its_members_where_a_scan_of_its_text_finds_them(value):
    # pretty_document records where it put each top-level member; a scan of the same
    # text must find every pointer (members, deeper values, missing keys) at the same place.
    rendered = pretty_document(value, "obj.json")
    assert rendered.text == pretty_json(value)
    scanned = JsonDocument(rendered.text, "obj.json", has_duplicates=False)
    pointers = ["", "/absent"] + [pointer_join("", key) for key in value]
    pointers += [pointer_join("", key, 0) for key, v in value.items() if isinstance(v, list)]
    pointers += [pointer_join("", key, inner) for key, v in value.items()
                 if isinstance(v, dict) for inner in v]
    for pointer in pointers:
        for on_key in (False, True):
            assert rendered.locate(pointer, on_key=on_key) == \
                scanned.locate(pointer, on_key=on_key), pointer


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(min_value=-10**400,
                                                             max_value=10**400)
                    | st.floats(allow_nan=False) | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                    max_leaves=10))
def test_a_rendered_document_is_what_parsing_its_rendering_gives(value):
    # rendered_document stands for parse_json(pretty_json(value)) where that parse would
    # give back the value and no problem; otherwise it declines, and the text is parsed.
    rendered = rendered_document(value, "v.json", max_depth=4)
    parsed, problems = parse_json(pretty_json(value), "v.json", max_depth=4)
    if rendered is not None:
        assert problems == [] and parsed is not None
        assert (rendered.text, rendered.value) == (parsed.text, parsed.value)


def test_a_plain_value_is_rendered_without_a_parse_and_a_marked_one_is_not():
    plain = {"entry_point": "main", "workgroup_sizes": [8, 1, 1], "x": [1.5, None, True]}
    assert rendered_document(plain, "v.json") is not None
    for marked in ({"n": 10**19}, {"n": float("inf")}, {"s": "\ud800"}, {1: 2},
                   {"deep": [[[[1]]]]}):
        assert rendered_document(marked, "v.json", max_depth=4) is None, marked
