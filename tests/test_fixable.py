"""Diagnostics that `tosa-vkshader fix` repairs are marked as such: in text (`[*]`), in
JSON (`fixable`, `replacement`, `fix`) and in SARIF (`fixes`, the same edits)."""

from __future__ import annotations

import json

from tosa_vkshader.cli import main

TEXT = ('{\n  "entry_point": "main",\n  "workgroup_sizes": [1, 1, 1],\n'
        '  "input_01_binding": 0,\n  "input_1_descriptorset": 0,\n'
        '  "input_1_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",\n'
        '  "input_1_vkformat": "VK_FORMAT_R32_SFLOAT",\n  "input_1_type": "BUFFER",\n'
        '  "input_0_binding": 1,\n  "input_0_descriptorset": 0,\n'
        '  "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",\n'
        '  "input_0_vkformat": "VK_FORMAT_R32_SFLOAT",\n  "input_0_type": "Buffer"\n}\n')
# `entryPoint` would become `entry_point`, which is already there: not mechanical, and fix
# then leaves the whole file as it is.
AMBIGUOUS = TEXT.replace('"Buffer"\n}', '"Buffer",\n  "entryPoint": "main"\n}')


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _op(tmp_path, text=TEXT):
    path = tmp_path / "op.json"
    path.write_text(text)
    return path


def test_text_marks_fixable_diagnostics_and_counts_them(capsys, tmp_path):
    _, out, _ = run(capsys, "check", str(_op(tmp_path)))
    assert "= help: did you mean `input_1_binding`? [*]" in out
    assert "= help: write \"Buffer\" [*]" in out
    assert out.rstrip().endswith("[*] 2 fixable with `tosa-vkshader fix`")


def test_json_says_which_diagnostics_fix_repairs(capsys, tmp_path):
    _, out, _ = run(capsys, "check", str(_op(tmp_path)), "--format", "json")
    found = {(d["code"], d["pointer"]): d for d in json.loads(out)["files"][0]["diagnostics"]}
    assert found[("VKS111", "/input_01_binding")]["fixable"] is True
    assert found[("VKS111", "/input_01_binding")]["replacement"] == '"input_1_binding"'


def test_an_ambiguous_rename_is_not_marked(capsys, tmp_path):
    _, out, _ = run(capsys, "check", str(_op(tmp_path, AMBIGUOUS)), "--format", "json")
    found = {(d["code"], d["pointer"]): d for d in json.loads(out)["files"][0]["diagnostics"]}
    assert found[("VKS114", "/entryPoint")]["fixable"] is False
    assert found[("VKS114", "/entryPoint")]["replacement"] is None
    _, text, _ = run(capsys, "check", str(_op(tmp_path, AMBIGUOUS)))
    assert "did you mean `entry_point`? (that key is also present: keep one)\n" in text


def test_sarif_fixes_are_the_diagnostics_fixes(capsys, tmp_path):
    path = _op(tmp_path)
    _, out, _ = run(capsys, "check", str(path), "--format", "sarif")
    sarif = {(r["ruleId"], r["properties"]["jsonPointer"]): r.get("fixes")
             for r in json.loads(out)["runs"][0]["results"]}
    _, out, _ = run(capsys, "check", str(path), "--format", "json")
    for diag in json.loads(out)["files"][0]["diagnostics"]:
        fixes = sarif[(diag["code"], diag["pointer"])]
        if diag["fix"] is None:
            assert fixes is None
            continue
        [fix] = fixes
        assert fix["description"]["text"] == diag["fix"]["title"]
        assert fix["properties"]["applicability"] == diag["fix"]["applicability"]
        [change] = fix["artifactChanges"]
        assert [(r["deletedRegion"], r["insertedContent"]["text"])
                for r in change["replacements"]] == [
            ({"startLine": e["start"]["line"], "startColumn": e["start"]["column"],
              "endLine": e["end"]["line"], "endColumn": e["end"]["column"]}, e["text"])
            for e in diag["fix"]["edits"]]
    assert sum(1 for fixes in sarif.values() if fixes) == 2
