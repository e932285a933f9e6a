"""Every fixture file produces exactly the codes (and positions) its expected.json lists."""

from __future__ import annotations

import re
import subprocess

import pytest

from tosa_vkshader import check_file
from tosa_vkshader.config_file import load_options

from conftest import FIXTURES, expected_fixtures

CASES = expected_fixtures()


def test_there_are_fixtures_for_every_folder():
    folders = {path.parent.name for path, _ in CASES}
    assert {"valid", "invalid"} <= folders
    assert len(CASES) >= 40


def _position(diag) -> str:
    """``line:col``, or for a .tosa file (no lines) ``region/block/operator``."""
    loc = diag.location
    if loc.line >= 1:
        return f"{loc.line}:{loc.column}"
    match = re.search(r"region (\d+) .*block (\d+) .*operator (\d+)", loc.logical or "")
    assert match, loc
    return "/".join(match.groups())


@pytest.mark.parametrize("path,expected", CASES,
                         ids=[str(p.relative_to(FIXTURES)) for p, _ in CASES])
def test_fixture_reports_exactly_the_expected_codes(path, expected):
    report = check_file(path, load_options(path.parent))
    found_codes = {d.code for d in report.diagnostics}
    assert found_codes == {e.split("@")[0] for e in expected}, report.diagnostics
    # A code listed with positions is found at exactly those positions.
    positioned = {e.split("@")[0] for e in expected if "@" in e}
    found = {f"{d.code}@{_position(d)}" for d in report.diagnostics if d.code in positioned}
    assert found == {e for e in expected if "@" in e}, report.diagnostics


def test_valid_fixtures_have_no_errors():
    for path, _ in CASES:
        if path.parent.name == "valid":
            assert check_file(path).ok, path


def test_every_key_and_value_rule_has_an_invalid_fixture():
    from tosa_vkshader.rule_registry import RULES

    covered = {e.split("@")[0] for p, codes in CASES if "invalid" in p.parts for e in codes}
    wanted = {c for c in RULES if c[3] in "12"} - {"VKS105"}  # 16 MiB file: unit-tested
    assert wanted - covered == set()


def test_the_readmes_first_command_confirms_every_fixture():
    """`bash scripts/check-fixtures`, the README's first command, as a user runs it."""
    root = FIXTURES.parent
    done = subprocess.run(["bash", str(root / "scripts" / "check-fixtures")], cwd=root,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "check-fixtures: OK, each of the" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
