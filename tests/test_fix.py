"""`fix`: mechanical repairs, a diff preview, atomic writes, refusal when ambiguous."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from test_codegen import CASES, GOOD, options_for

from tosa_vkshader.api import check_file
from tosa_vkshader.cli import main
from tosa_vkshader.codegen import op_from_shader, repair
from tosa_vkshader.keys import classify

from conftest import FIXTURES

FIX = FIXTURES / "codegen" / "fix"
FIXABLE = ["leading_zero.json", "near_miss_keys.json", "type_case_and_order.json"]
REFUSED = {"ambiguous_target_taken.json": "VKS620", "ambiguous_no_target.json": "VKS620",
           "duplicate_keys.json": "VKS620"}


def copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copy(FIX / name, target)
    return target


@pytest.mark.parametrize("name", FIXABLE)
def test_fix_repairs_then_check_is_clean_and_a_second_run_changes_nothing(name, tmp_path):
    path = copy(name, tmp_path)
    assert check_file(path).diagnostics  # something to fix
    assert main(["fix", str(path)]) == 0
    assert check_file(path).diagnostics == []
    once = path.read_bytes()
    assert main(["fix", str(path)]) == 0
    assert path.read_bytes() == once
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no temporary files left


def test_fixed_values_are_kept_under_their_new_names(tmp_path):
    path = copy("near_miss_keys.json", tmp_path)
    main(["fix", str(path)])
    attrs = json.loads(path.read_text())
    assert attrs["entry_point"] == "main"
    assert attrs["workgroup_sizes"] == [8, 8, 1]
    assert attrs["input_0_binding"] == 0 and attrs["output_0_descriptorset"] == 0
    assert attrs["input_0_vkdescriptortype"] == "VK_DESCRIPTOR_TYPE_TENSOR_ARM"
    assert attrs["input_0_type"] == "Tensor"  # added from the descriptor type
    assert list(attrs)[:2] == ["entry_point", "workgroup_sizes"]  # renamed where they were


def test_type_case_canonical_and_order_when_asked(tmp_path):
    path = copy("type_case_and_order.json", tmp_path)
    main(["fix", "--sort-keys", str(path)])
    attrs = json.loads(path.read_text())
    assert attrs["input_0_type"] == "Tensor" and attrs["output_0_type"] == "Image"
    assert list(attrs) == ["entry_point", "workgroup_sizes", "input_0_vkformat",
                           "input_0_vkdescriptortype", "input_0_type", "input_0_binding",
                           "input_0_descriptorset", "output_0_vkformat",
                           "output_0_vkdescriptortype", "output_0_type", "output_0_binding",
                           "output_0_descriptorset", "is_vkshader"]


def test_diff_previews_without_writing(tmp_path, capsys):
    path = copy("leading_zero.json", tmp_path)
    before = path.read_bytes()
    assert main(["fix", "--diff", str(path)]) == 0
    out = capsys.readouterr().out
    assert path.read_bytes() == before
    assert out.startswith("--- a/")
    assert '-  "input_00_binding": 0,' in out
    assert '+  "input_0_binding": 0,' in out


@pytest.mark.parametrize(("name", "code"), sorted(REFUSED.items()))
def test_ambiguous_repairs_leave_the_file_untouched(name, code, tmp_path, capsys):
    path = copy(name, tmp_path)
    before = path.read_bytes()
    assert main(["fix", str(path)]) == 1
    assert path.read_bytes() == before
    assert f"error[{code}]" in capsys.readouterr().err


def test_unreadable_json_is_left_untouched(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text('{"entry_point": "main",')
    assert main(["fix", str(path)]) == 1
    assert path.read_text() == '{"entry_point": "main",'
    assert "error[VKS621]" in capsys.readouterr().err


def test_embed_spirv_replaces_glsl_and_checks_clean(tmp_path):
    path = copy("glsl_to_embed.json", tmp_path)
    assert main(["fix", "--embed", "spirv", str(path)]) == 0
    attrs = json.loads(path.read_text())
    assert attrs["shader_language"] == "SPIR-V"
    assert [d.code for d in check_file(path).diagnostics] == ["VKS430"]  # a note only
    once = path.read_bytes()
    assert main(["fix", "--embed", "spirv", str(path)]) == 0
    assert path.read_bytes() == once


def test_embed_of_a_broken_shader_leaves_the_file(tmp_path, capsys):
    path = copy("broken_glsl_to_embed.json", tmp_path)
    before = path.read_bytes()
    assert main(["fix", "--embed", "spirv", str(path)]) == 1
    assert path.read_bytes() == before
    err = capsys.readouterr().err
    assert "error[VKS622]" in err and "error[VKS300]" in err


def test_an_op_object_is_repaired_inside_implementation_attrs(tmp_path):
    path = tmp_path / "op.json"
    attrs = json.loads((FIX / "leading_zero.json").read_text())
    path.write_text(json.dumps({"domain_name": "com.arm.VulkanCustomShader",
                                "operator_name": "copy", "implementation_attrs": attrs}))
    assert main(["fix", str(path)]) == 0
    fixed = json.loads(path.read_text())
    assert fixed["operator_name"] == "copy"
    assert "input_0_binding" in fixed["implementation_attrs"]
    assert check_file(path).diagnostics == []


def damage(attrs: dict, seed: int) -> dict:
    """What people do by hand: keys shuffled, leading zeros, odd case, `_type` left out."""
    rng = random.Random(seed)
    out = {}
    for key, value in attrs.items():
        info = classify(key)
        if info.field == "type":
            if rng.random() < 0.5:
                continue
            value = value.upper()
        elif info.field == "binding":
            key = f"{info.direction}_0{info.index}_binding"
        elif info.field == "descriptorset" and rng.random() < 0.5:
            key = key.replace("descriptorset", "descriptor_set")
        out[key] = value
    items = list(out.items())
    rng.shuffle(items)
    return dict(items)


@pytest.mark.parametrize(("stem", "path"), GOOD[::2], ids=[p.name for _s, p in GOOD[::2]])
def test_fix_restores_damaged_attributes_of_every_fixture_shader(stem, path):
    case = CASES[stem]
    options = options_for(case)
    op = op_from_shader(path, format_of=case.get("format_of", {}),
                        entry_point=case.get("entry_point"), options=options)
    damaged = json.dumps(damage(op.attrs, len(stem)), indent=1)
    first = repair(damaged, None, options, sort_keys=True)
    assert first.ok and first.changed
    assert json.loads(first.fixed) == op.attrs
    assert list(json.loads(first.fixed)) == list(op.attrs)
    second = repair(first.fixed, None, options)
    assert not second.changed
