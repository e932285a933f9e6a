"""Generated files are committed; each has a generator and must not go stale."""

from __future__ import annotations

from pathlib import Path

from tosa_vkshader import rules_doc
from tosa_vkshader.vulkan import generate


def test_registry_tables_match_the_installed_vulkan_registry():
    assert generate.TABLES_PATH.read_text() == generate.render(), \
        "run: python -m tosa_vkshader.vulkan.generate"


def test_rules_doc_is_fresh():
    assert rules_doc.DOC_PATH.read_text() == rules_doc.render(), \
        "run: python -m tosa_vkshader.rules_doc"


def test_every_rule_is_documented_with_examples():
    text = Path(rules_doc.DOC_PATH).read_text()
    for item in rules_doc.all_rules():
        assert f"### {item.code}" in text
        assert item.summary and item.why and item.bad and item.good
