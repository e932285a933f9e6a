"""Every string can be printed, and long lines cost nothing (issue #14, items 4 and 5).

Keys and values come from the file: line breaks, terminal escapes, bidi overrides and
lone surrogates in them must never crash a reporter nor fake a line of its output.
"""

from __future__ import annotations

import json

import pytest
from hostile_helpers import run_cli, text

FAKE = "\n::error file=a.json,line=1::FAKE\u001b[31m"
EVIL = json.dumps({
    "entry_point": "main", "workgroup_sizes": [1, 1, 1],
    "x" + FAKE: 1, "\ud800": "\udfff", "input_0_type": "\ud800\u202e",
})  # ensure_ascii: the file itself is plain ASCII with \\u escapes


@pytest.fixture
def evil(tmp_path):
    path = tmp_path / "evil.json"
    path.write_text(EVIL)
    return path


@pytest.mark.parametrize("form", ["text", "github", "json", "sarif"])
def test_every_format_prints_hostile_keys_and_values(evil, form):
    result = run_cli("check", "--format", form, str(evil))
    assert result.returncode == 1, text(result)
    assert result.stderr == b""
    out = result.stdout.decode("utf-8")  # strict: no surrogate escaped into the bytes
    if form in ("json", "sarif"):
        json.loads(out)
        return
    # No line of the output starts with anything but a diagnostic, a shown line or help.
    for line in out.splitlines():
        assert not line.startswith("::error file=a.json"), line
        assert "\x1b" not in line and "\u202e" not in line
    assert "FAKE" in out


def test_text_output_escapes_control_characters_in_keys(evil):
    out = run_cli("check", str(evil)).stdout.decode()
    assert "unknown key `x\\x0a::error file=a.json,line=1::FAKE\\x1b[31m`" in out
    assert "unknown key `\\ud800`" in out


def test_github_output_keeps_every_annotation_on_one_line(evil):
    lines = run_cli("check", "--format", "github", str(evil)).stdout.decode().splitlines()
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    report = json.loads(run_cli("check", "--format", "json", str(evil)).stdout)
    assert len(lines) == len(report["files"][0]["diagnostics"])


def test_report_written_with_o_holds_the_escaped_text(evil, tmp_path):
    out = tmp_path / "report.txt"
    result = run_cli("check", "-o", str(out), str(evil))
    assert result.returncode == 1, text(result)
    assert "\\ud800" in out.read_text(encoding="utf-8")


def test_fix_writes_lone_surrogates_as_json_escapes(evil):
    result = run_cli("fix", str(evil))
    assert result.returncode in (0, 1), text(result)
    assert "Traceback" not in text(result)
    fixed = evil.read_text(encoding="utf-8")
    assert json.loads(fixed)["\ud800"] == "\udfff"


def test_a_minified_line_is_shown_clipped_around_each_problem(tmp_path):
    keys = ", ".join(f'"unknown_{i}": {i}' for i in range(3000))  # one 60 KB line
    path = tmp_path / "min.json"
    path.write_text('{"entry_point": "main", "workgroup_sizes": [1, 1, 1], ' + keys + "}")
    out = run_cli("check", "--select", "VKS115", str(path)).stdout.decode()
    shown = [line for line in out.splitlines() if line.startswith("     1 | ")]
    assert len(shown) == 3000
    assert max(len(line) for line in shown) <= 9 + 160
    assert '"unknown_2999": 2999' in shown[-1]
    # The caret sits under the key it points to.
    lines = out.splitlines()
    last = lines.index(shown[-1])
    caret = lines[last + 1].index("^")
    assert shown[-1][caret:].startswith('"unknown_2999"')


def test_text_that_python_calls_printable_holds_nothing_to_escape():
    # printable() returns such text as it is, without its substitution: that is only
    # right while no character it escapes is one str.isprintable() accepts.
    from tosa_vkshader.report.printable import _unsafe

    escaped_yet_printable = [hex(code) for code in range(0x110000)
                             if chr(code).isprintable() and _unsafe().match(chr(code))]
    assert escaped_yet_printable == []
