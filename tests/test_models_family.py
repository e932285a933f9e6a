"""The MLIR reader on the bench's family of generated models (bench/model_family.py),
against a straightforward reading of the same text.

The members are small versions of each shape the bench measures (the shape of issue #31,
many small ops, several functions, mostly weights). The reference reading below knows
only how the generator (and tosa-opt) print a model: one op per line. It finds the
custom ops, their places, operands, types, attributes, and which results a later line of
the function uses; the reader must find the same. The diagnostics must be those of the
same ops checked as op-level JSON (what does not depend on the text), placed on the op's
line at the key or value they are about.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tosa_vkshader import Options, check_file, validate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import model_family  # noqa: E402
from model_family import build  # noqa: E402  (mlir_string, tosa_opt)

# Each shape of the family, small.
SMALL: dict[str, dict[str, Any]] = {
    "issue": dict(megabytes=0.4, ordinary_ops=230, custom_ops=30, weights=10),
    "many-small-ops": dict(megabytes=0.3, ordinary_ops=1200, custom_ops=40, weights=2),
    "functions": dict(megabytes=0.4, ordinary_ops=400, custom_ops=24, weights=8),
    "weights": dict(megabytes=0.6, ordinary_ops=60, custom_ops=10, weights=6),
}
# How an op is wired in its function is known from MLIR, not from op-level JSON.
WIRING = {"VKS531", "VKS532"}


@pytest.fixture(scope="module")
def members(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("family")
    written = {}
    for name, size in SMALL.items():
        shape = dataclasses.replace(model_family.member(name), **size)
        path = folder / f"{name}.mlir"
        path.write_text(model_family.generate(shape))
        written[name] = path
    return written


# -- the reference reading ---------------------------------------------------------------------

_OP = re.compile(r'(?P<results>%[\w$.-]+(?::\d+)?) = tosa\.custom (?P<operands>[^{]*?) ?'
                 r'\{domain_name = "(?P<domain>[^"]*)", implementation_attrs = '
                 r'"(?P<attrs>(?:[^"\\]|\\.)*)", operator_name = "(?P<name>[^"]*)"\} : '
                 r'\((?P<inputs>[^)]*)\) -> (?P<outputs>.*)$')
_NAME_GOES_ON = re.compile(r"[\w$.-]")


def _unescape(literal: str) -> str:
    """An MLIR string literal's contents, decoded (two hex digits, or the character)."""
    data = re.sub(rb"\\([0-9A-Fa-f]{2}|.)",
                  lambda m: bytes((int(m.group(1), 16),)) if len(m.group(1)) == 2
                  else m.group(1), literal.encode())
    return data.decode()


def _types(text: str) -> list[str]:
    text = text.strip()
    if text.startswith("("):
        text = text[1:-1]
    return [t.strip() for t in text.split(",") if t.strip()]


def _uses(line: str, name: str) -> list[str]:
    """The ways ``line`` mentions SSA value ``name``: ``%n`` or ``%n#k``."""
    found = []
    for match in re.finditer(re.escape(name) + r"(#\d+)?", line):
        after = line[match.end():match.end() + 1]
        if not _NAME_GOES_ON.match(after) or match.group(1):
            found.append(match.group())
    return found


def reference_ops(text: str) -> list[dict]:
    """Every custom op of a generated model, read line by line."""
    lines = text.split("\n")
    ops = []
    for number, line in enumerate(lines):
        match = _OP.search(line)
        if match is None:
            continue
        name, _, count = match.group("results").partition(":")
        results = _types(match.group("outputs"))
        later = []
        for following in lines[number + 1:]:
            if following.startswith("  func.func"):
                break
            later.append(following)
        mentions = [use for following in later for use in _uses(following, name)]
        used = tuple(name in mentions or f"{name}#{k}" in mentions
                     for k in range(len(results)))
        ops.append({
            "line": number + 1,
            "column": line.index("tosa.custom") + 1,
            "operand_values": tuple(v for v in match.group("operands").split(", ") if v),
            "operands": tuple(_types(match.group("inputs"))),
            "results": tuple(results),
            "results_used": used,
            "domain_name": match.group("domain"),
            "operator_name": match.group("name"),
            "attributes": json.loads(_unescape(match.group("attrs"))),
            "attrs_column": line.index("implementation_attrs = ") + 24,
        })
    return ops


def _read(op) -> dict:
    context = op.context
    place = context.place("op")
    return {
        "line": place.line,
        "column": place.column,
        "operand_values": context.operand_values,
        "operands": tuple(t.text for t in context.operands),
        "results": tuple(t.text for t in context.results),
        "results_used": context.results_used,
        "domain_name": context.domain_name,
        "operator_name": context.operator_name,
        "attributes": op.attributes,
    }


# -- the tests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(SMALL))
def test_the_reader_finds_the_ops_a_line_by_line_reading_finds(members, name):
    text = members[name].read_text()
    expected = reference_ops(text)
    assert len(expected) == SMALL[name]["custom_ops"]
    report = validate(text, Options(), path=f"{name}.mlir")
    found = [_read(op) for op in report.source.ops]
    assert found == [{k: v for k, v in op.items() if k != "attrs_column"}
                     for op in expected]
    # every result used, as the generator wires them; and multi-operand ops fed by
    # distinct values
    assert all(all(op["results_used"]) for op in expected)
    assert all(len(set(op["operand_values"])) == len(op["operand_values"])
               for op in expected)


@pytest.mark.parametrize("name", list(SMALL))
def test_the_diagnostics_are_those_of_the_same_ops_as_json(members, name, tmp_path):
    path = members[name]
    from_mlir = check_file(path)
    ops = reference_ops(path.read_text())
    as_json = tmp_path / f"{name}.ops.json"
    as_json.write_text(json.dumps([
        {"domain_name": op["domain_name"], "operator_name": op["operator_name"],
         "inputs": list(op["operands"]), "outputs": list(op["results"]),
         "implementation_attrs": op["attributes"]} for op in ops]))
    from_json = check_file(as_json)

    def facts(report) -> Counter:
        return Counter((d.code, d.severity, d.message, d.pointer, d.hint)
                       for d in report.diagnostics if d.code not in WIRING)

    assert facts(from_mlir) == facts(from_json)
    # one custom op in ten has a mistake: each is reported
    mistaken = {op["line"] for k, op in enumerate(ops) if k % 10 == 9}
    assert mistaken <= {d.location.line for d in from_mlir.diagnostics
                        if d.severity.name == "ERROR"}


@pytest.mark.parametrize("name", list(SMALL))
def test_diagnostics_are_placed_at_the_key_they_name(members, name):
    """A diagnostic about a key of an op's attributes is on the op's line, and the file
    there holds the key as the MLIR string writes it."""
    path = members[name]
    lines = path.read_text().split("\n")
    ops = {op["line"]: op for op in reference_ops(path.read_text())}
    report = check_file(path)
    on_keys = [d for d in report.diagnostics if d.on_key and d.pointer]
    assert on_keys
    for diagnostic in on_keys:
        op = ops[diagnostic.location.line]
        key = diagnostic.pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
        written = build.mlir_string(json.dumps(key))[1:-1]
        line = lines[diagnostic.location.line - 1]
        assert diagnostic.location.column > op["attrs_column"]
        assert line[diagnostic.location.column - 1:].startswith(written), diagnostic


def test_a_model_read_from_its_open_file_reads_as_text_given_directly(tmp_path):
    """From a megabyte on, a model is read a piece at a time from its file: what is found,
    and where, is what the same text given as a string gives."""
    shape = dataclasses.replace(model_family.member("issue"), megabytes=1.5,
                                ordinary_ops=200, custom_ops=20, weights=10)
    path = tmp_path / "model.mlir"
    path.write_text(model_family.generate(shape))
    assert path.stat().st_size > 1 << 20

    def where(report) -> list[tuple]:
        return [(d.code, d.message, d.location.line, d.location.column, d.location.end_line,
                 d.location.end_column) for d in report.diagnostics]

    from_file = check_file(path)
    assert where(from_file)
    assert where(from_file) == where(validate(path.read_text(), Options(),
                                              path=str(path)))
    assert from_file.source.text.line_text(3) == path.read_text().split("\n")[2]


def test_members_are_what_tosa_opt_reads_and_prints(members):
    """Every member parses and verifies with tosa-opt, which prints it back unchanged:
    the generator writes models as tosa-opt prints them."""
    for path in members.values():
        printed = subprocess.run([str(build.tosa_opt()), str(path)], capture_output=True,
                                 text=True)
        assert printed.returncode == 0, printed.stderr[:2000]
        assert printed.stdout == path.read_text(), path.name


def test_results_used_far_from_their_op_or_never(tmp_path):
    """The reader first looks for an op's results near it; one used far away (past
    megabytes of weights) is still seen used, one never used is reported."""
    attrs = build.mlir_string(json.dumps({
        "entry_point": "main", "workgroup_sizes": [1, 1, 1], "input_0_binding": 0,
        "input_0_descriptorset": 0, "input_0_vkdescriptortype":
        "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "input_0_vkformat": "VK_FORMAT_R32_SFLOAT",
        "output_0_binding": 1, "output_0_descriptorset": 0, "output_0_vkdescriptortype":
        "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", "output_0_vkformat": "VK_FORMAT_R32_SFLOAT"}))
    t = "tensor<4xf32>"
    ops = [f'    %{k} = tosa.custom %arg0 {{domain_name = "com.arm.VulkanCustomShader", '
           f'implementation_attrs = {attrs}, operator_name = "k{k}"}} : ({t}) -> {t}'
           for k in range(3)]
    weights = f'    %w = "tosa.const"() <{{values = dense<"0x{"00" * 600_000}"> : ' \
              f'tensor<150000xf32>}}> : () -> tensor<150000xf32>'
    text = "\n".join([f"func.func @main(%arg0: {t}) -> ({t}, {t}) {{", *ops, weights,
                      f"    %s = tosa.add %0, %2 : ({t}, {t}) -> {t}",
                      f"    return %s, %w : {t}, tensor<150000xf32>", "}", ""])
    path = tmp_path / "far.mlir"
    path.write_text(text)
    for report in (check_file(path), validate(text, Options(), path="far.mlir")):
        assert [op.context.results_used for op in report.source.ops] == \
            [(True,), (False,), (True,)]
        assert [(d.code, d.location.line) for d in report.diagnostics
                if d.code == "VKS531"] == [("VKS531", 3)]
