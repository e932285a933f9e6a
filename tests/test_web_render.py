"""Answers are rendered by one kept C encoder (web/lint_routes.py): byte for byte what
``json.dumps`` with the same settings writes, for any JSON value, lone surrogates and
non-ASCII text included, and NaN refused as json refuses it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tosa_vkshader.web.lint_routes import render_json

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_an_answer_is_what_json_dumps_writes(value):
    expected = json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    assert render_json(value) == expected.encode("ascii")


def test_a_lone_surrogate_is_sent_back_escaped_and_nan_is_refused():
    assert render_json({"note": "\ud800 é"}) == b'{"note":"\\ud800 \\u00e9"}'
    with pytest.raises(ValueError):
        render_json({"x": float("nan")})
