"""`fix` makes minimal edits: only the keys and values it repairs change; key order,
indentation, array layout and the (missing) trailing newline stay byte for byte. Its diff
applies with patch and git apply, and it says what it changed and what is left."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tosa_vkshader.cli import main

from conftest import FIXTURES

# Hand-written: four-space indentation, workgroup_sizes on one line, a sampler object
# spread over lines, an unusual key order, and no newline at the end.
HAND_WRITTEN = """{
    "workgroup_sizes": [16, 16, 1],
    "entry_point": "main",
    "input_01_binding": 0,
    "input_1_descriptorset": 0,
    "input_1_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
    "input_1_vkformat": "VK_FORMAT_R32_SFLOAT",
    "input_1_type": "BUFFER",
    "input_0_binding": 1, "input_0_descriptorset": 0,
    "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
    "input_0_vkformat": "VK_FORMAT_R32_SFLOAT",
    "output_0_binding": 2,
    "output_0_descriptorset": 0,
    "output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
    "output_0_vkformat": "VK_FORMAT_R32_SFLOAT",
    "producer": {
        "name": "hand",
        "dims": [
            1,
            2
        ]
    }
}"""

EXPECTED = (HAND_WRITTEN
            .replace('"input_01_binding"', '"input_1_binding"')
            .replace('"input_1_type": "BUFFER"', '"input_1_type": "Buffer"')
            .replace('"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",\n',
                     '"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",\n'
                     '    "input_0_type": "Buffer",\n')
            .replace('"output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",\n',
                     '"output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",\n'
                     '    "output_0_type": "Buffer",\n'))


def test_only_the_repaired_keys_and_values_change(tmp_path, capsys):
    path = tmp_path / "op.json"
    path.write_text(HAND_WRITTEN)
    assert main(["fix", str(path)]) == 0
    assert path.read_text() == EXPECTED
    err = capsys.readouterr().err
    assert f"{path}: changed: renamed `input_01_binding` to `input_1_binding`" in err
    assert f"{path}: changed: `input_1_type`: 'BUFFER' written 'Buffer'" in err
    assert f"{path}: fixed " in err and "VKS111" in err


ONE_LINE = '{"entry_point": "main", "workgroup_sizes": [1, 1, 1], "input_01_binding": 0}'


@pytest.mark.parametrize("tool", ["patch", "git"])
@pytest.mark.parametrize(("text", "expected"), [
    (HAND_WRITTEN, EXPECTED),
    (ONE_LINE, ONE_LINE.replace("input_01", "input_1")),  # the changed line is the last
])
def test_the_diff_applies_with_patch_and_git_apply(tmp_path, capsys, tool, text, expected):
    if shutil.which(tool) is None:
        pytest.fail(f"{tool} is needed for this test")
    (tmp_path / "op.json").write_text(text)
    assert main(["fix", "--diff", str(tmp_path / "op.json")]) in (0, 1)
    diff = capsys.readouterr().out
    assert (tmp_path / "op.json").read_text() == text  # --diff writes nothing
    if text is ONE_LINE:
        assert diff.count("\\ No newline at end of file\n") == 2
    # Applied from the folder the file is in, as `git diff` output would be.
    prefix = str(tmp_path).lstrip("/")
    diff = diff.replace(f"a/{prefix}/", "a/").replace(f"b/{prefix}/", "b/")
    command = ["patch", "-p1"] if tool == "patch" else ["git", "apply", "-p1"]
    done = subprocess.run(command, input=diff, text=True, cwd=tmp_path, capture_output=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "op.json").read_text() == expected


def test_an_op_object_keeps_everything_outside_the_repaired_key(tmp_path):
    text = ('{"domain_name": "com.arm.VulkanCustomShader", "operator_name": "k",\n'
            ' "implementation_attrs": {"entryPoint": "main", "workgroup_sizes": [1, 1, 1]}}\n')
    path = tmp_path / "op.json"
    path.write_text(text)
    assert main(["fix", str(path)]) == 0
    assert path.read_text() == text.replace('"entryPoint"', '"entry_point"')


def test_errors_fix_cannot_repair_are_listed_with_codes_and_exit_1(tmp_path, capsys):
    path = tmp_path / "op.json"
    path.write_text('{\n  "entryPoint": "main",\n  "workgroup_sizes": [8, 8, 1],\n'
                    '  "input_0_binding": 0\n}\n')
    assert main(["fix", str(path)]) == 1
    assert path.read_text().startswith('{\n  "entry_point": "main",')  # repaired anyway
    err = capsys.readouterr().err
    assert f"{path}: fixed 1 (VKS114); not fixed: 1 error(s) (VKS220)" in err
    assert "error[VKS220] input_0 is missing" in err
    assert main(["fix", str(path)]) == 1  # nothing more to change, the error stays


def test_a_clean_file_is_left_alone_and_exits_0(tmp_path, capsys):
    path = tmp_path / "op.json"
    text = '{"entry_point": "main", "workgroup_sizes": [1, 1, 1]}'
    path.write_text(text)
    assert main(["fix", str(path)]) == 0
    assert path.read_text() == text
    assert capsys.readouterr().err == ""


def _damaged(original: str, which: int) -> str:
    """``entry_point`` misspelled inside the escaped attribute string of op ``which``."""
    at = -1
    for _ in range(which + 1):
        at = original.index("entry_point", at + 1)
    return original[:at] + "entryPoint" + original[at + len("entry_point"):]


def _fixed(text: str, tmp_path, name: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    main(["fix", str(path)])
    return path.read_text()


@pytest.mark.parametrize("model", ["pretty.mlir", "generic.mlir"])
def test_fix_rewrites_the_attribute_strings_of_an_mlir_model_in_place(tmp_path, capsys,
                                                                      model):
    original = (FIXTURES / "models" / model).read_text()
    repaired = _fixed(_damaged(original, 1), tmp_path, model)
    assert re.search(r"changed: op at line \d+: renamed `entryPoint` to `entry_point`",
                     capsys.readouterr().err)
    # The misspelled key is repaired like every other repair of the model (missing
    # `_type` added): the same file as fixing the undamaged model.
    assert repaired == _fixed(original, tmp_path / "..", "undamaged-" + model)
    # Outside the ops' attribute strings the file is byte for byte the same.
    kept = [line for line in original.splitlines() if "implementation_attrs" not in line]
    assert kept == [line for line in repaired.splitlines()
                    if "implementation_attrs" not in line]
    # Quotes inside the string stay written the way the file writes them.
    assert ('\\"' in repaired) == ('\\"' in original)


def test_fix_diff_of_an_mlir_model_applies_with_patch(tmp_path, capsys):
    original = (FIXTURES / "models" / "pretty.mlir").read_text()
    path = tmp_path / "model.mlir"
    path.write_text(_damaged(original, 0))
    main(["fix", "--diff", str(path)])
    diff = capsys.readouterr().out
    prefix = str(tmp_path).lstrip("/")
    diff = diff.replace(f"a/{prefix}/", "a/").replace(f"b/{prefix}/", "b/")
    done = subprocess.run(["patch", "-p1"], input=diff, text=True, cwd=tmp_path,
                          capture_output=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert path.read_text() == _fixed(original, tmp_path / "..", "undamaged.mlir")


def test_fix_leaves_json_that_is_not_an_op_alone(tmp_path, capsys):
    (tmp_path / "package.json").write_text('{"name": "app", "version": "1.0.0"}')
    (tmp_path / "op.json").write_text('{"entryPoint": "main", "workgroup_sizes": [1, 1, 1]}')
    assert main(["fix", str(tmp_path)]) == 0
    assert (tmp_path / "package.json").read_text() == '{"name": "app", "version": "1.0.0"}'
    assert (tmp_path / "op.json").read_text().startswith('{"entry_point": "main"')
    assert "package.json" not in capsys.readouterr().err
