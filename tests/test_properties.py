"""Properties from the spec's grammar: valid objects pass, mutations are caught, nothing crashes."""

from __future__ import annotations

import copy
import json

from hypothesis import given
from hypothesis import strategies as st

from tosa_vkshader import Attributes, validate

from strategies import any_json, mutated_attribute_objects, valid_attribute_objects

# Valid by the spec, but refused for what the reference runtime does with them: uniform
# buffers read zeros (VKS251), storage texel buffers do not run (VKS252).
RUNTIME_ERRORS = {"VKS251", "VKS252"}


@given(valid_attribute_objects())
def test_objects_from_the_grammar_have_no_errors(attrs):
    report = validate(attrs)
    assert {d.code for d in report.errors} <= RUNTIME_ERRORS, [str(d) for d in report.errors]


@given(valid_attribute_objects())
def test_models_round_trip_losslessly(attrs):
    model = Attributes.from_attrs(attrs)
    assert model.to_attrs() == attrs
    assert Attributes.model_validate_json(model.model_dump_json()) == model


def _first_resource_key(attrs, field):
    return next((k for k in attrs if k.startswith(("input_0_", "output_0_"))
                 and k.endswith("_" + field)), None)


MUTATIONS = {
    "VKS110": lambda a: a.pop("entry_point"),
    "VKS111": lambda a: a.__setitem__("input_00_binding", a.pop("input_0_binding")),
    "VKS112": lambda a: a.__setitem__("Input_0_binding", a.pop("input_0_binding")),
    "VKS114": lambda a: a.__setitem__("entryPoint", a.pop("entry_point")),
    "VKS200": lambda a: a.__setitem__("input_0_binding", str(a["input_0_binding"])),
    "VKS201": lambda a: a.__setitem__("entry_point", "9" + a["entry_point"]),
    "VKS202": lambda a: a.__setitem__("workgroup_sizes", a["workgroup_sizes"][:2]),
    "VKS205": lambda a: a.__setitem__("shader_language", "GLSL"),
    "VKS220": lambda a: a.pop("input_0_vkformat"),
    "VKS222": lambda a: (a.__setitem__("input_0_binding", 7), a.__setitem__("input_1_binding", 7),
                         a.__setitem__("input_0_descriptorset", 0),
                         a.__setitem__("input_1_descriptorset", 0)),
    "VKS225": lambda a: a.__setitem__("input_0_vkdescriptortype", "VK_DESCRIPTOR_TYPE_FOO"),
    "VKS226": lambda a: a.__setitem__("input_0_vkformat", "VK_FORMAT_R7_SINT"),
}


@given(attrs=valid_attribute_objects())
def test_targeted_mutations_produce_their_code(attrs):
    """Each mutation, on its own copy of the same drawn object, gives its code (one draw
    for all of them: drawing the objects, not checking them, is what costs)."""
    if "input_1_binding" not in attrs:  # every mutation above needs two inputs
        attrs.update({f"input_{i}_{f}": v for i in (0, 1) for f, v in (
            ("binding", 100 + i), ("descriptorset", 9),
            ("vkdescriptortype", "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"),
            ("vkformat", "VK_FORMAT_R32_SFLOAT"))})
        for i in range(2, 5):
            for f in ("binding", "descriptorset", "vkdescriptortype", "vkformat", "type",
                      "sampler"):
                attrs.pop(f"input_{i}_{f}", None)
    attrs.pop("shader_code", None)
    for code, mutate in MUTATIONS.items():
        mutated = copy.deepcopy(attrs)
        mutate(mutated)
        report = validate(mutated)
        assert code in report.codes, (code, report.diagnostics)


@given(mutated_attribute_objects())
def test_mutated_objects_never_crash(attrs):
    validate(attrs)


@given(any_json())
def test_any_json_value_never_crashes(value):
    report = validate(json.dumps(value))  # str and bytes are JSON text to validate()
    # An object is an op; so is each object of a non-empty list. Anything else is VKS102.
    ops = isinstance(value, dict) or (isinstance(value, list) and value
                                      and all(isinstance(v, dict) for v in value))
    assert ops or "VKS102" in report.codes


@given(st.binary(max_size=300))
def test_any_bytes_never_crash(data):
    validate(data)


@given(st.text(max_size=300))
def test_any_text_never_crashes(text):
    validate(text)


@given(st.recursive(st.just([]), lambda c: st.lists(c, max_size=2), max_leaves=200))
def test_deep_json_is_reported_not_raised(value):
    validate(json.dumps({"entry_point": "main", "x": value}))
