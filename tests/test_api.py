"""The Python API and the diagnostics contract."""

from __future__ import annotations

import json

import pydantic
import pytest

import tosa_vkshader
from tosa_vkshader import Attributes, Options, Severity, check_paths, validate

from conftest import FIXTURES


def test_validate_accepts_dict_text_and_bytes(valid_attrs):
    assert validate(valid_attrs).ok
    assert validate(json.dumps(valid_attrs)).ok
    assert validate(json.dumps(valid_attrs).encode()).ok


def test_every_diagnostic_is_complete():
    for report in check_paths([FIXTURES / "invalid"], tosa_vkshader.load_options(FIXTURES)):
        for diag in report.diagnostics:
            assert diag.code in tosa_vkshader.RULES
            assert diag.message and diag.location and diag.location.line >= 1
            assert isinstance(diag.severity, Severity)
            assert diag.pointer == "" or diag.pointer.startswith("/")


def test_a_bad_key_does_not_hide_a_bad_value_later():
    report = validate('{"entry_point": "main", "workgroup_sizes": [1, 1, 1],'
                      ' "input_01_binding": 0, "input_0_vkformat": "VK_FORMAT_NOPE"}')
    assert {"VKS111", "VKS226"} <= set(report.codes)


def test_misspelled_key_values_are_still_checked():
    report = validate({"entry_point": "main", "workgroup_sizes": [1, 1, 1],
                       "input_00_vkformat": "VK_FORMAT_NOPE"})
    assert {"VKS111", "VKS226"} <= set(report.codes)


def test_shader_errors_map_through_json_escapes():
    text = ('{"entry_point": "main", "workgroup_sizes": [1, 1, 1], "shader_language": '
            '"SPIR-V",\n "shader_code": "AwIj\\tBAAA"}')
    diag = next(d for d in validate(text).diagnostics if d.code == "VKS206")
    assert (diag.location.line, diag.location.column) == (2, 22)  # the \\t escape after `"AwIj`


def test_report_attributes_are_typed(valid_attrs):
    attrs = validate(valid_attrs).attributes
    assert isinstance(attrs, Attributes)
    assert [r.binding for r in attrs.inputs] == [0, 1, 2]
    assert attrs.push_constants.total_size == 8
    assert attrs.to_attrs() == valid_attrs
    assert validate({"entry_point": ""}).attributes is None


def test_models_reject_what_the_spec_forbids():
    with pytest.raises(pydantic.ValidationError):
        Attributes.from_attrs({"entry_point": "main", "workgroup_sizes": [1, True, 1]})
    with pytest.raises(pydantic.ValidationError):
        Attributes.from_attrs({"entry_point": "main", "workgroup_sizes": [1, 1.0, 1]})


def test_unknown_keys_are_kept_by_the_model():
    attrs = {"entry_point": "main", "workgroup_sizes": [1, 1, 1], "producer": {"v": 2},
             "input_0_stride": 4, "input_0_binding": 0}
    model = Attributes.from_attrs(attrs)
    assert model.extra == {"producer": {"v": 2}}
    assert model.inputs[0].extra == {"stride": 4}
    assert model.to_attrs() == attrs


def test_size_limit_is_a_diagnostic():
    report = validate(b"{" + b" " * 2048 + b"}", Options(max_file_size=1024))
    assert report.codes == ["VKS105"]


def test_unreadable_path_is_a_diagnostic(tmp_path):
    report = tosa_vkshader.check_file(tmp_path / "nope.json")
    assert report.codes == ["VKS900"]


def test_options_from_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tosa-vkshader]\nignore = ["VKS115"]\nworkgroup-semantics = "dispatch"\n')
    (tmp_path / "sub").mkdir()
    options = tosa_vkshader.load_options(tmp_path / "sub")
    assert options.ignore == ("VKS115",)
    assert options.workgroup_semantics == "dispatch"


def test_python_values_that_are_not_json_are_reported_not_raised():
    report = validate({"entry_point": "main", "workgroup_sizes": [float("nan"), 1, 1],
                       "input_0_binding": {1, 2}})
    assert {"VKS202", "VKS200"} <= set(report.codes)
    assert all(d.location is not None for d in report.diagnostics)
