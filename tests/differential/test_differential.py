"""The differential suite against the reference model-converter (a bounded sample; the
full run is ``scripts/differential``). See cases.py, oracle.py and compare.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cases import BASES, Case, all_cases, sample
from compare import REASONS, compare, our_verdicts, read_table
from oracle import converter, judge, judge_all

HERE = Path(__file__).resolve().parent

needs_converter = pytest.mark.skipif(
    converter() is None,
    reason="the reference model-converter is not installed (dev extra: tosa-vkshader[run])")


@needs_converter
def test_sample_no_looser_verdicts_and_every_stricter_one_reviewed():
    cases = sample()
    reference = judge_all(cases)
    ours = our_verdicts(cases)
    outcome = compare(cases, reference, ours, read_table())
    assert not outcome.looser, "the converter rejects or breaks these, and we say nothing:\n" \
        + "\n".join(f"{case}: {verdict.status}: {verdict.reason}"
                    for case, verdict in outcome.looser)
    assert not outcome.stricter_unlisted, "we error, the converter accepts, and " \
        "stricter.md does not say why (run tests/differential/run.py):\n" \
        + "\n".join(f"{case}: {', '.join(us.errors)}" for case, us in outcome.stricter_unlisted)
    assert not outcome.listed_not_stricter, f"stale stricter.md rows: " \
        f"{outcome.listed_not_stricter}"
    assert not outcome.codes_changed, f"stricter.md codes differ: {outcome.codes_changed}"
    # the sample exercises both sides: the converter accepts and rejects
    assert sum(v.ok for v in reference.values()) > 50
    assert sum(not v.ok for v in reference.values()) > 50


@needs_converter
def test_base_ops_convert_sanely_and_check_clean():
    cases = [c for c in all_cases(full=False) if c.id.endswith("/base")]
    assert len(cases) == len(BASES)
    ours = our_verdicts(cases)
    for case in cases:
        assert ours[case.id].ok, (case.id, ours[case.id].errors)
    assert all(v.ok for v in judge_all(cases).values())


@needs_converter
def test_oracle_sees_a_truncated_workgroup_and_a_lost_binding(tmp_path):
    """The reference verdict itself can fail: a VGF that loses what the attributes say is
    'broken', not 'accepted'."""
    base = next(c for c in all_cases(full=False) if c.id == "copy-glsl/base")
    truncated = Case("t/truncated", base.attrs_text.replace("64,", "4294967360,", 1),
                     base.operands, base.results)
    (tmp_path / "a").mkdir()
    verdict = judge(truncated, tmp_path / "a")
    assert verdict.status == "broken" and "dispatch shape [64, 1, 1]" in verdict.reason
    two = next(c for c in all_cases(full=False)
               if c.id == "two-results-glsl/wiring:unused-result")
    (tmp_path / "b").mkdir()
    assert judge(two, tmp_path / "b").status == "broken"


def test_stricter_table_rows_are_well_formed():
    table = read_table()
    assert len(table) > 100
    known = {c.id for c in all_cases(full=True)}
    for entry in table.values():
        assert entry.case in known, f"{entry.case}: no such case"
        assert entry.reason in REASONS and entry.reason != "bug", entry
        assert entry.codes and entry.why and entry.why != "?", entry


def test_reference_differences_doc_is_generated_from_the_table():
    run = subprocess.run([sys.executable, str(HERE / "reference_doc.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
