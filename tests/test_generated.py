"""Generated files are committed; each has a generator and must not go stale."""

from __future__ import annotations

from pathlib import Path

from tosa_vkshader import rules_doc
from tosa_vkshader.registry import generate


def test_registry_tables_match_the_installed_vulkan_registry():
    assert generate.TABLES_PATH.read_text() == generate.render(), \
        "run: python -m tosa_vkshader.registry.generate"


def test_rules_doc_is_fresh():
    assert rules_doc.DOC_PATH.read_text() == rules_doc.render(), \
        "run: python -m tosa_vkshader.rules_doc"


def test_every_rule_is_documented_with_examples():
    rules_doc.load_all_rules()
    from tosa_vkshader.diagnostics import RULES

    text = Path(rules_doc.DOC_PATH).read_text()
    for code, item in RULES.items():
        assert f"### {code}" in text
        assert item.summary and item.why and item.bad and item.good


def test_rule_index_is_fresh():
    """--select/--ignore are checked against this index at start-up (without importing
    every check), so it must list exactly the registry's codes and severities."""
    assert rules_doc.INDEX_PATH.read_text() == rules_doc.render_index(), \
        "run: python -m tosa_vkshader.rules_doc"
