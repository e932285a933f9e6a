"""A compiler error inside `shader_code` carries both places in every output format: where
it is in the file (the op's location) and the line and column inside the shader source."""

from __future__ import annotations

import json

from tosa_vkshader.cli import main

from conftest import FIXTURES

BROKEN = FIXTURES / "glsl" / "invalid" / "glsl-syntax-error.json"


def _check(capsys, fmt: str) -> str:
    assert main(["check", str(BROKEN), "--format", fmt]) == 1
    return capsys.readouterr().out


def _compile_error(diagnostics: list[dict]) -> dict:
    [diag] = [d for d in diagnostics if d["code"] == "VKS300"]
    return diag


def test_json_has_the_file_location_and_the_shader_location(capsys):
    diag = _compile_error(json.loads(_check(capsys, "json"))["files"][0]["diagnostics"])
    assert diag["location"]["path"] == str(BROKEN) and diag["location"]["line"] >= 1
    assert diag["shader_location"]["line"] == 8
    assert diag["shader_location"]["column"] >= 1


def test_sarif_has_the_shader_location_as_property_and_related_location(capsys):
    results = json.loads(_check(capsys, "sarif"))["runs"][0]["results"]
    [result] = [r for r in results if r["ruleId"] == "VKS300"]
    shader = result["properties"]["shaderLocation"]
    assert shader["line"] == 8
    [related] = result["relatedLocations"]
    assert related["message"]["text"] == (f"line 8, column {shader['column']} of "
                                          "shader_code")
    assert related["physicalLocation"] == result["locations"][0]["physicalLocation"]


def test_github_annotations_name_the_shader_line(capsys):
    lines = [line for line in _check(capsys, "github").splitlines() if "VKS300" in line]
    assert len(lines) == 1 and "[shader_code line 8, column " in lines[0]
    assert f"file={BROKEN}".replace(":", "%3A").replace(",", "%2C") in lines[0]


def test_text_shows_the_shader_line(capsys):
    out = _check(capsys, "text")
    assert "(line 8 of `shader_code`)" in out
