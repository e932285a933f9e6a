"""`check` keeps the reports of plain JSON files by content (result_cache.py): a second run
answers from them, exactly as a fresh check would, and anything that could change a
verdict (the bytes, the configuration) makes the file be checked again."""

from __future__ import annotations

import json
import os
import pickle
import shutil
from pathlib import Path

import pytest

from tosa_vkshader.api import check_paths
from tosa_vkshader.checked import Report
from tosa_vkshader.cli import main
from tosa_vkshader.diagnostics import Diagnostic, Severity
from tosa_vkshader.result_cache import ResultCache

from conftest import FIXTURES

CLEAN = FIXTURES / "valid" / "tensor-op.json"  # (no shader: its report is kept)
BROKEN = FIXTURES / "invalid" / "leading-zero-index.json"
GLSL_OP = FIXTURES / "devices" / "local_size.json"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(folder))
    return folder


def packs(cache_dir: Path) -> list[Path]:
    """The files the reports are kept in: one per set of options."""
    return sorted((cache_dir / "reports-v1").rglob("*.json"))


def kept(cache_dir: Path) -> dict[str, tuple[int, bytes]]:
    """Every kept report (still pickled) by key, whichever pack holds it."""
    return {key: entry for pack in packs(cache_dir)
            for key, entry in pickle.loads(pack.read_bytes()).items()}


def rewrite(cache_dir: Path, change) -> None:
    """Each pack with ``change(report path, pickled report)``'s bytes for its reports."""
    for pack in packs(cache_dir):
        reports = pickle.loads(pack.read_bytes())
        pack.write_bytes(pickle.dumps({
            key: (made, change(pickle.loads(raw).path, raw))
            for key, (made, raw) in reports.items()}))


def copies(tmp_path: Path, *files: Path) -> list[str]:
    folder = tmp_path / "ops"
    folder.mkdir(exist_ok=True)
    return [str(shutil.copy(f, folder / f.name)) for f in files]


def check(capsys, *argv: str) -> tuple[int, str]:
    code = main(["check", *argv])
    out, _ = capsys.readouterr()
    return code, out


def test_a_second_run_answers_from_the_kept_reports_exactly_as_the_first(
        capsys, tmp_path, cache_dir):
    package = tmp_path / "ops" / "package.json"
    package.parent.mkdir()
    package.write_text('{"name": "not-an-op", "version": "1.0.0"}\n')
    files = [*copies(tmp_path, CLEAN, BROKEN), str(package)]
    for output in ("text", "json", "sarif"):
        first = check(capsys, "--format", output, *files)
        assert check(capsys, "--format", output, *files) == first
    assert first[0] == 1
    assert len(packs(cache_dir)) == 1  # one set of options
    assert len(kept(cache_dir)) == 3  # the clean op, the broken one, the skipped note

    # The second run really reads them: a report planted under a file's key is what the
    # next run prints for that file.
    planted = pickle.dumps(Report(files[0], [Diagnostic("VKS100", Severity.ERROR, "planted")]))
    rewrite(cache_dir, lambda path, raw: planted if path == files[0] else raw)
    code, out = check(capsys, files[0])
    assert code == 1 and "planted" in out


def test_an_edited_file_or_another_configuration_is_checked_again(
        capsys, tmp_path, cache_dir):
    [op] = copies(tmp_path, BROKEN)
    code, out = check(capsys, "--format", "json", op)
    codes = [d["code"] for d in json.loads(out)["files"][0]["diagnostics"]]
    assert code == 1 and codes

    # another configuration: the nearest pyproject.toml ignores those codes
    (tmp_path / "ops" / "pyproject.toml").write_text(
        "[tool.tosa-vkshader]\nignore = [" + ", ".join(f'"{c}"' for c in codes) + "]\n")
    assert check(capsys, "--format", "json", op)[0] == 0
    (tmp_path / "ops" / "pyproject.toml").unlink()
    assert check(capsys, "--format", "json", op) == (code, out)

    # the same file mended (its bytes change): the fresh verdict, not the kept one
    Path(op).write_bytes(CLEAN.read_bytes())
    assert check(capsys, op)[0] == 0
    assert check(capsys, "--select", codes[0], op)[0] == 0  # (options on the command line)


def test_shaders_and_models_are_checked_every_time(capsys, tmp_path, cache_dir):
    """A shader's verdict also depends on the compiler and spirv-val on the machine."""
    model = FIXTURES / "models" / next(p.name for p in (FIXTURES / "models").iterdir()
                                       if p.suffix == ".mlir")
    check(capsys, *copies(tmp_path, GLSL_OP, model))
    assert kept(cache_dir) == {}


def test_a_damaged_or_foreign_report_is_a_miss_and_never_runs_code(
        capsys, tmp_path, cache_dir):
    files = copies(tmp_path, CLEAN, BROKEN)
    first = check(capsys, *files)
    marker = tmp_path / "ran"

    class Payload:  # what a hostile entry would hold: a call on unpickling
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    hostile = pickle.dumps(Payload())
    rewrite(cache_dir, lambda path, raw: hostile if path == files[0] else b"\x80\x05 damaged")
    assert check(capsys, *files) == first
    assert not marker.exists()
    assert all(isinstance(pickle.loads(raw), Report) for _, raw in kept(cache_dir).values())
    assert len(kept(cache_dir)) == 2  # both checked and kept again

    for pack in packs(cache_dir):  # a damaged pack: as if there were none
        pack.write_bytes(pickle.dumps(Payload()))
    assert check(capsys, *files) == first
    assert not marker.exists() and len(kept(cache_dir)) == 2


def test_no_cache_keeps_nothing(capsys, tmp_path, cache_dir):
    files = copies(tmp_path, CLEAN, BROKEN)
    assert check(capsys, "--no-cache", *files)[0] == 1
    assert packs(cache_dir) == []


def test_runs_at_the_same_time_keep_each_others_reports(tmp_path, cache_dir):
    """Two checks started together (CI jobs sharing a cache folder): the one that ends
    last keeps what the first wrote meanwhile."""
    first, second = copies(tmp_path, CLEAN, BROKEN)
    runs = [ResultCache(), ResultCache()]
    for run, path in zip(runs, (first, second), strict=True):
        check_paths([path], results=run)
    for run in runs:
        run.close()
    assert sorted(pickle.loads(raw).path for _, raw in kept(cache_dir).values()) == \
        sorted([first, second])
