"""JSON that is not an op (package.json, tsconfig.json) is recognised by its name or, when
it parses, by its content: a note when named, silence when a folder walk finds it;
anything op-like, and anything that does not parse, is still checked, at every door."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from web_helpers import module_server

from tosa_vkshader.cli import main

server, client = module_server("op-documents")


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


# -- one verdict for the same bytes at every door ---------------------------------------

CORRUPTED = {
    "latin1.json": b'{"caf\xe9": 1}\n',                        # not UTF-8, no op key seen
    "truncated.json": b'{\n  "ent',                             # cut short
    "trailing.json": b'{"name": "app",}',                       # not JSON, not an op key
    "garbage.json": b"\x00\x01\x02 binary",
    "op-latin1.json": b'{"entry_point": "m\xe4in", "workgroup_sizes": [1, 1, 1]}',
}


def _doors(tmp_path, capsys, name: str, data: bytes) -> dict[str, object]:
    """What each front door says about one file's bytes: an error (True), fine (False),
    or skipped ("skipped")."""
    from tosa_vkshader import Options, check_paths, validate_file
    from tosa_vkshader.codegen.repair import repair

    path = tmp_path / name
    path.write_bytes(data)
    verdicts: dict[str, object] = {}
    code, out, _ = run(capsys, "check", str(path), "--format", "json")
    [file] = json.loads(out)["files"]
    codes = {d["code"] for d in file["diagnostics"]}
    verdicts["cli"] = "skipped" if codes == {"VKS935"} else code == 1
    [report] = check_paths([path])
    verdicts["check_paths"] = "skipped" if report.codes == ["VKS935"] else not report.ok
    verdicts["validate_file"] = "skipped" if validate_file(path).codes == ["VKS935"] \
        else not validate_file(path).ok
    code, _, err = run(capsys, "fix", str(path), "--diff")
    verdicts["fix"] = "skipped" if code == 0 and not err else code == 1
    code, _, err = run(capsys, "compile", str(path), "-o", str(tmp_path / "out.spv"))
    verdicts["compile"] = "skipped" if "VKS935" in err else code == 1
    verdicts["repair"] = not repair(data, str(path), Options()).ok
    return verdicts


@pytest.mark.parametrize("name", sorted(CORRUPTED))
def test_bytes_that_do_not_parse_are_an_error_at_every_door(capsys, tmp_path, name):
    verdicts = _doors(tmp_path, capsys, name, CORRUPTED[name])
    assert set(verdicts.values()) == {True}, verdicts


@pytest.mark.parametrize("name,text", [
    ("package.json", '{"name": "app", "version": "1.0.0"}'),
    ("tsconfig.json", '{\n  // comments\n  "compilerOptions": {"strict": true},\n}\n'),
    ("tsconfig.build.json", "{ broken"),
    ("data.json", '{"rows": [1, 2, 3]}'),
])
def test_what_is_not_ours_is_skipped_at_every_door(capsys, tmp_path, name, text):
    verdicts = _doors(tmp_path, capsys, name, text.encode())
    del verdicts["repair"]  # (a text without a name: only the doors that read files)
    assert set(verdicts.values()) == {"skipped"}, verdicts


def test_vscode_settings_are_skipped_by_their_folder_even_when_they_do_not_parse(capsys,
                                                                                tmp_path):
    folder = tmp_path / ".vscode"
    folder.mkdir()
    (folder / "settings.json").write_text('{\n  // editor\n  "files.eol": "\\n",\n}\n')
    (tmp_path / "op.json").write_bytes(CORRUPTED["latin1.json"])
    code, out, _ = run(capsys, "check", str(folder / "settings.json"), str(tmp_path / "op.json"))
    assert code == 1
    assert "info[VKS935] skipped" in out and "VS Code's settings" in out
    assert "op.json:1:6: error[VKS101]" in out
    # A folder walk (hidden folders included) skips it silently.
    code, out, _ = run(capsys, "check", str(tmp_path), "--format", "json")
    assert [Path(f["path"]).name for f in json.loads(out)["files"]] == ["op.json"]


def test_the_web_gives_the_same_verdict_for_pasted_text(client):
    for data in (CORRUPTED["truncated.json"], CORRUPTED["trailing.json"]):
        answer = client.post("/v1/check", content=data,
                             headers={"content-type": "text/plain"}).json()
        assert answer["files"][0]["ok"] is False
        assert {d["code"] for d in answer["files"][0]["diagnostics"]} == {"VKS100"}
    skipped = client.post("/v1/check", json={"text": '{"rows": [1, 2, 3]}'}).json()
    assert [d["code"] for d in skipped["files"][0]["diagnostics"]] == ["VKS935"]
    assert skipped["files"][0]["ok"] is True
