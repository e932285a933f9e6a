"""JSON that is not an op (package.json, tsconfig.json) is recognised by its content: a
note when named, silence when a folder walk finds it; anything op-like is still checked."""

from __future__ import annotations

import json

import pytest

from tosa_vkshader.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


NOT_OPS = {
    "package.json": '{"name": "app", "version": "1.0.0", "scripts": {"test": "jest"}}',
    "tsconfig.json": '{\n  // JSON with comments\n  "compilerOptions": {"outDir": "dist"}\n}',
    "list.json": '["a", "b"]',
    "settings.json": '[{"editor.tabSize": 2}]',
}


@pytest.mark.parametrize("name", sorted(NOT_OPS))
def test_json_without_op_keys_named_explicitly_gets_a_note(capsys, tmp_path, name):
    (tmp_path / name).write_text(NOT_OPS[name])
    code, out, _ = run(capsys, "check", str(tmp_path / name), "--format", "json")
    assert code == 0
    [diag] = json.loads(out)["files"][0]["diagnostics"]
    assert (diag["code"], diag["severity"]) == ("VKS935", "info")
    assert "not an op document" in diag["message"]


def test_a_folder_walk_skips_json_that_is_not_an_op(capsys, tmp_path):
    for name, text in NOT_OPS.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "op.json").write_text('{"entryPoint": "main", "workgroup_sizes": [1, 1, 1]}')
    code, out, _ = run(capsys, "check", str(tmp_path), "--format", "json")
    assert code == 1
    files = json.loads(out)["files"]
    assert [f["path"] for f in files] == [str(tmp_path / "op.json")]


@pytest.mark.parametrize(("text", "code"), [
    ('{"entryPoint": "main"}', "VKS114"),            # only a near-miss key: still an op
    ('{"input_01_binding": 0}', "VKS111"),
    ('{"entry_point": "main", "workgroup_sizes": [1, 1, 1],}', "VKS100"),  # broken JSON
    ('[["entry_point", "main"]]', "VKS102"),         # op keys in the wrong shape
    ("", "VKS100"),                                  # an empty file is not skipped
    ("{}", "VKS110"),
])
def test_anything_op_like_is_still_checked(capsys, tmp_path, text, code):
    (tmp_path / "op.json").write_text(text)
    status, out, _ = run(capsys, "check", str(tmp_path / "op.json"), "--format", "json")
    codes = {d["code"] for d in json.loads(out)["files"][0]["diagnostics"]}
    assert status == 1 and code in codes, codes
