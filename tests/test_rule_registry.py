"""The rule registry (``rule_registry.RULES``) lists every rule once, and each rule is
documented once, in the module its row names."""

from __future__ import annotations

import importlib
import re

import pytest

from tosa_vkshader.diagnostics import Rule
from tosa_vkshader.rule_registry import GROUPS, RULES, find, rule
from tosa_vkshader.rules_doc import all_rules, documented

from conftest import ROOT

PACKAGE = ROOT / "src" / "tosa_vkshader"


def test_codes_and_names_are_well_formed_and_unique():
    for code, entry in RULES.items():
        assert entry.code == code
        assert re.fullmatch(r"VKS\d{3}", code) and code[3] in GROUPS, code
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", entry.name), entry.name
    names = [entry.name for entry in RULES.values()]
    assert len(names) == len(set(names))


def test_every_row_is_documented_in_the_module_it_names():
    documented_rules = all_rules()
    assert [item.code for item in documented_rules] == sorted(RULES)
    for item in documented_rules:
        entry = RULES[item.code]
        assert (item.name, item.severity, item.group) == (entry.name, entry.severity,
                                                          entry.group)


def _package_modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] != "__main__":
            names.append(".".join(("tosa_vkshader", *parts)).removesuffix(".__init__"))
    return names


def test_no_rule_is_declared_twice():
    """A module that uses another module's rule imports that rule; a second ``rule(CODE)``
    anywhere would be a second, different object."""
    for name in _package_modules():
        for value in vars(importlib.import_module(name)).values():
            if isinstance(value, Rule):
                assert value is documented(RULES[value.code]), \
                    f"{name} declares {value.code}, which {RULES[value.code].module} declares"


def test_a_rule_without_a_row_cannot_be_declared():
    with pytest.raises(LookupError, match="VKS999 is not in rule_registry.RULES"):
        rule("VKS999", summary="s", why="w", bad="b", good="g")


def test_rules_are_found_by_code_in_any_case_or_by_name():
    assert find("vks111") is RULES["VKS111"]
    assert find(RULES["VKS111"].name.upper()) is RULES["VKS111"]
    assert find("VKS999") is None
