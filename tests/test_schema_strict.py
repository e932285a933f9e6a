"""Strict where the spec is: no document the reference schema rejects is accepted here.

A seeded generator (tests/schema_documents.py) builds realistic ops that this checker
finds clean and breaks them where the reference converter's JSON Schema constrains them
(wrong JSON types per key, ``null`` included; unknown members in nested objects;
strings outside an enum or a pattern; numbers and arrays out of bounds; required members
removed). Every document the reference schema rejects must get at least one error.
The reference schema is read from the team's shared folder beside the clone (never
copied here); a clone on its own skips these comparisons, as
tests/test_schema_and_reference.py does. Where the spec allows something, the
differential suite (tests/differential/) keeps us from being stricter than the converter
without a reviewed reason.
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from schema_documents import SchemaDocuments

from tosa_vkshader import validate

from conftest import REFERENCE_SCHEMA

SCHEMA = json.loads(REFERENCE_SCHEMA.read_text()) if REFERENCE_SCHEMA.is_file() else None
needs_reference = pytest.mark.skipif(
    SCHEMA is None,
    reason=f"reference converter schema not found at {REFERENCE_SCHEMA} (set "
           "TOSA_VKSHADER_REFERENCE_SCHEMA to compare with it)")
DOCUMENTS = 3000


@needs_reference
def test_the_generators_ops_are_valid_and_clean_before_they_are_broken():
    """Without this, a rejected document could get its error for another reason than
    the perturbation, and the comparison below would prove little."""
    reference = jsonschema.Draft202012Validator(SCHEMA)
    generator = SchemaDocuments(SCHEMA, seed=23)
    for _ in range(200):
        op = generator.realistic()
        assert reference.is_valid(op), op
        report = validate(op)
        assert report.ok, (op, report.diagnostics)


@needs_reference
def test_no_document_the_reference_schema_rejects_is_accepted():
    reference = jsonschema.Draft202012Validator(SCHEMA)
    generator = SchemaDocuments(SCHEMA, seed=2023)
    rejected = 0
    accepted: list[tuple[str, list[str]]] = []
    for attempt in range(DOCUMENTS * 2):
        if rejected == DOCUMENTS:
            break
        document = generator.document()
        if reference.is_valid(document):
            continue
        rejected += 1
        # As a file holds it (text), and as Python hands it over (an object).
        report = validate(json.dumps(document) if attempt % 2 else document)
        if report.ok:
            accepted.append((json.dumps(document)[:300],
                             sorted(e.message[:120] for e in reference.iter_errors(document))))
    assert rejected == DOCUMENTS, f"only {rejected} rejected documents generated"
    assert not accepted, f"{len(accepted)} of {DOCUMENTS} documents the reference schema " \
        "rejects were accepted:\n" + "\n".join(f"{doc}\n  reference: {why}"
                                               for doc, why in accepted[:10])


@needs_reference
@pytest.mark.parametrize("change", [
    {"input_0_type": 1},
    {"input_0_sampler": {"min_filter": "VK_FILTER_LINEAR", "mag_filter": "VK_FILTER_LINEAR",
                         "address_mode_u": "VK_SAMPLER_ADDRESS_MODE_REPEAT",
                         "address_mode_v": "VK_SAMPLER_ADDRESS_MODE_REPEAT",
                         "border_color": "VK_BORDER_COLOR_INT_OPAQUE_BLACK",
                         "anisotropy": 4}},
    {"push_constants": None},
])
def test_the_issues_examples_are_errors(change):
    op = {"entry_point": "main", "workgroup_sizes": [8, 8, 1],
          "input_0_vkformat": "VK_FORMAT_R8G8B8A8_UNORM",
          "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER",
          "input_0_binding": 0, "input_0_descriptorset": 0, **change}
    assert not jsonschema.Draft202012Validator(SCHEMA).is_valid(op)
    assert not validate(op).ok
