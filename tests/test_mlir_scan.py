"""The MLIR reader works in time linear in the file, whatever the file holds.

No timings: a hook counts the characters the reader's scanners look at. A quadratic
reader (one that rescans to the end of the file for every unclosed bracket, or rescans a
line from its start for every `tosa.custom` on it) looks at hundreds of times the file's
size on these inputs; a linear one at a small multiple of it.
"""

from __future__ import annotations

import json
import re

import pytest

from tosa_vkshader import Options, validate
from tosa_vkshader.sources import mlir_source

ATTRS = {"entry_point": "main", "workgroup_sizes": [8, 8, 1]}
DOMAIN = 'domain_name = "com.arm.VulkanCustomShader"'


class CountingPattern:
    """A compiled pattern that adds up how many characters each search may look at."""

    def __init__(self, pattern: re.Pattern[str], counter: list[int]) -> None:
        self.pattern = pattern
        self.counter = counter

    def _span(self, string: str, pos: int, endpos: int | None) -> None:
        self.counter[0] += (len(string) if endpos is None else min(endpos, len(string))) - pos

    def match(self, string: str, pos: int = 0, endpos: int | None = None):
        found = self.pattern.match(string, pos, len(string) if endpos is None else endpos)
        self.counter[0] += (found.end() - pos if found else 0) + 1  # what it consumed
        return found

    def finditer(self, string: str, pos: int = 0, endpos: int | None = None):
        self._span(string, pos, endpos)
        return self.pattern.finditer(string, pos, len(string) if endpos is None else endpos)


@pytest.fixture
def looked_at(monkeypatch):
    """Characters that the reader's regular expressions and its bracket skipper may look
    at, summed over the whole read."""
    counter = [0]
    for name in ("_LINE_TOKEN", "_STRING", "_SPACE", "_SSA", "_BARE_ID"):
        monkeypatch.setattr(mlir_source, name,
                            CountingPattern(getattr(mlir_source, name), counter))
    skip_value = mlir_source._Parser.skip_value

    def counted_skip_value(self, stops):
        start = self.pos
        try:
            skip_value(self, stops)
        finally:
            counter[0] += self.pos - start

    monkeypatch.setattr(mlir_source._Parser, "skip_value", counted_skip_value)
    return counter


def check(text: str):
    return validate(text, Options(), path="model.mlir")


def test_unclosed_brackets_cost_their_own_op_not_the_rest_of_the_file(looked_at):
    ops = 400
    text = "".join(f"%{n} = tosa.custom %x {{{DOMAIN}, note = [(<{{\n" for n in range(ops))
    report = check(text)
    assert [d.code for d in report.diagnostics] == ["VKS500"] * ops
    assert [d.location.line for d in report.diagnostics] == list(range(1, ops + 1))
    first = report.diagnostics[0].message
    assert "not closed before the next op" in first
    assert "unexpected end of file" in report.diagnostics[-1].message
    assert looked_at[0] < 4 * len(text)  # a rescan to the end per op: ~ops/2 * len(text)


def test_many_op_names_on_one_line_are_tokenized_once(looked_at):
    names = 3000
    inside_a_string = '%0 = "tosa.const"() {note = "' + "tosa.custom " * names + '"}'
    inside_a_comment = "// " + "tosa.custom, " * names
    text = inside_a_string + "\n" + inside_a_comment + "\n"
    report = check(text)
    assert [d.code for d in report.diagnostics] == ["VKS506"] and report.source.ops == []
    assert looked_at[0] < 4 * len(text)


def test_many_broken_ops_on_one_line_each_report_once(looked_at):
    ops = 500
    text = " ".join(f"%{n} = tosa.custom %x {{{DOMAIN}, note = [(" for n in range(ops))
    report = check(text)
    assert [d.code for d in report.diagnostics] == ["VKS500"] * ops
    assert looked_at[0] < 4 * len(text)


def test_ops_after_a_broken_one_are_still_read():
    good = json.dumps(ATTRS).replace('"', "\\22")
    text = (f"%0 = tosa.custom %x {{{DOMAIN}, note = (\n"
            f'%1 = tosa.custom %x {{{DOMAIN}, operator_name = "k", implementation_attrs = '
            f'"{good}", extra = "tosa.custom"}} : (tensor<8xf32>) -> tensor<8xf32>\n')
    report = check(text)
    assert [(d.code, d.location.line) for d in report.diagnostics
            if d.code == "VKS500"] == [("VKS500", 1)]
    assert len(report.source.ops) == 1 and report.source.ops[0].attributes == ATTRS


def test_generic_and_pretty_names_are_told_apart_from_longer_names():
    text = ('tosa.custom "tosa.custom"(x) "tosa.custom" x xtosa.custom tosa.custom_2 '
            '%tosa.custom tosa.customs _tosa.custom #tosa.custom "tosa.custom\n'
            'tosa.custom.x a.tosa.custom\n  tosa.custom')
    expected = [(0, False), (text.index('"tosa.custom"(x)'), True),
                (text.rindex("tosa.custom"), False)]
    assert [(start, generic) for start, _end, generic in mlir_source.candidates(text)] \
        == expected


def test_the_file_is_searched_for_return_once_not_once_per_op(monkeypatch):
    # Each op's returned-result order comes from the function's `return`; looking for it
    # from every op to the end of the file cost 24 s on a 25 MB model with 100 ops.
    calls = []
    sites = mlir_source.keyword_sites  # the one pass that finds every `return`
    monkeypatch.setattr(mlir_source, "keyword_sites",
                        lambda text: calls.append(len(text)) or sites(text))
    attrs = json.dumps(ATTRS).replace('"', '\\"')
    ops = [f'    %r{k} = tosa.custom %a {{{DOMAIN}, operator_name = "k{k}", '
           f'implementation_attrs = "{attrs}"}} : (tensor<4xf32>) -> tensor<4xf32>'
           for k in range(60)]
    text = ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n" + "\n".join(ops)
            + "\n    return %r59 : tensor<4xf32>\n}\n")
    report = check(text)
    assert len(calls) == 1
    unused = [d for d in report.diagnostics if d.code == "VKS531"]
    assert len(unused) == 59  # every op but the returned one: the return was found
