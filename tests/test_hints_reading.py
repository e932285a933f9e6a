"""Hints of the reading and key rules (VKS1xx), each where it fires: following the hint
makes the problem go away without a new error."""

from __future__ import annotations

import json

import pytest

from tosa_vkshader import Options, check_file, validate

from hint_cases import Case, after_fix, check_attributes, hinted

OP = {"entry_point": "main", "workgroup_sizes": [8, 8, 1],
      "input_0_binding": 0, "input_0_descriptorset": 0,
      "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
      "input_0_vkformat": "VK_FORMAT_R32_SFLOAT"}
GOOD = "{\n" + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in OP.items()) + "\n}"


def _renamed(old: str, new: str) -> dict:
    return {new if k == old else k: v for k, v in OP.items()}


def _without(key: str) -> dict:
    return {k: v for k, v in OP.items() if k != key}


CASES = [
    # JSON syntax
    Case("VKS100", GOOD.replace('"VK_FORMAT_R32_SFLOAT"', '"VK_FORMAT_R32_SFLOAT",'),
         "remove the trailing comma", GOOD),
    Case("VKS100", '{\n  "entry_point": "main",\n  "workgroup_sizes": [8, 8, 1],\n}',
         "remove the trailing comma",
         '{\n  "entry_point": "main",\n  "workgroup_sizes": [8, 8, 1]\n}'),
    Case("VKS100", GOOD.replace('"entry_point": "main"', "'entry_point': 'main'"),
         "JSON strings use double quotes", GOOD),
    Case("VKS100", GOOD.replace("{\n", "{\n  // the kernel\n", 1), "JSON has no comments",
         GOOD),
    Case("VKS103", GOOD.replace('"entry_point": "main",',
                                '"entry_point": "main",\n  "entry_point": "main",'),
         "keep a single `entry_point`", GOOD),
    Case("VKS106", GOOD.replace("[8, 8, 1]", "[NaN, 8, 1]"), "write a finite number", GOOD),
    Case("VKS121", GOOD.replace("[8, 8, 1]", "[1e400, 8, 1]"),
         "write a number within ±1.8e308", GOOD),
    Case("VKS120", GOOD.replace('"main"', '"ma\\ud800in"'),
         "escape the character as a surrogate pair, or remove it", GOOD),
    # keys
    Case("VKS110", _without("workgroup_sizes"),
         'add `"workgroup_sizes": [x, y, z]`, e.g. [8, 8, 1]', OP),
    Case("VKS110", _without("entry_point"),
         'add `"entry_point": "main"` (GLSL entry points are always `main`)', OP),
    Case("VKS111", _renamed("input_0_binding", "input_00_binding"),
         "did you mean `input_0_binding`?", OP),
    Case("VKS112", _renamed("input_0_binding", "inpt_0_binding"),
         "did you mean `input_0_binding`?", OP),
    Case("VKS112", _renamed("input_0_binding", "input_0_Binding"),
         "did you mean `input_0_binding`?", OP),
    Case("VKS113", _renamed("input_0_binding", "input_0x0_binding"),
         "did you mean `input_0_binding`?", OP),
    Case("VKS114", _renamed("entry_point", "entryPoint"), "did you mean `entry_point`?", OP),
    # the right key beside the misspelled one: a leftover to remove
    Case("VKS114", {**OP, "workgroup_size": [8, 8, 1]},
         "did you mean `workgroup_sizes`? (that key is also present: keep one)", OP),
    Case("VKS116", {**OP, "input_0_stride": 16},
         "remove it: the converter reads only vkformat, vkdescriptortype, type, binding, "
         "descriptorset and sampler", OP),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_hint(case):
    check_attributes(case)


def test_a_file_that_is_not_utf8_is_saved_as_utf8(tmp_path):
    path = tmp_path / "op.mlir"
    model = ('module {\n  // caf\u00e9\n  func.func @main() {\n    return\n  }\n}\n')
    path.write_bytes(model.encode("latin-1"))
    before = check_file(path)
    hinted(before.diagnostics, "VKS101", hint="save the file as UTF-8")
    path.write_bytes(model.encode("utf-8"))
    after_fix(before, check_file(path), "VKS101", None)


def test_json_bytes_that_are_not_utf8_are_saved_as_utf8():
    given = GOOD.replace('"main"', '"main",\n  "note": "caf\u00e9"')
    before = validate(given.encode("latin-1"))
    hinted(before.diagnostics, "VKS101", hint="save the file as UTF-8")
    after_fix(before, validate(given.encode("utf-8")), "VKS101", None)


def test_a_file_over_the_size_limit_points_at_the_setting(tmp_path):
    path = tmp_path / "op.json"
    path.write_text(GOOD)
    small = Options(max_file_size=32)
    before = check_file(path, small)
    hinted(before.diagnostics, "VKS105",
           hint="raise `max-file-size` in [tool.tosa-vkshader] if this is intended")
    after_fix(before, check_file(path, Options(max_file_size=len(GOOD))), "VKS105", None)


def test_text_over_the_size_limit_points_at_the_setting():
    before = validate(GOOD, Options(max_file_size=32))
    hinted(before.diagnostics, "VKS105",
           hint="raise `max-file-size` in [tool.tosa-vkshader] if this is intended")
    after_fix(before, validate(GOOD, Options(max_file_size=len(GOOD))), "VKS105", None)
