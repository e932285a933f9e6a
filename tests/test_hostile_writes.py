"""`fix` and `-o` keep what they overwrite; Ctrl-C and SIGTERM leave nothing behind
(issue #14, items 6 and 7)."""

from __future__ import annotations

import os
import signal
import stat

import pytest
from hostile_helpers import run_cli, text

from tosa_vkshader import fsutil
from tosa_vkshader.cli import main

TYPO = '{"entryPoint": "main", "workgroup_sizes": [1, 1, 1]}\n'


def test_fix_keeps_the_mode_of_the_file_it_rewrites(tmp_path):
    path = tmp_path / "op.json"
    path.write_text(TYPO)
    path.chmod(0o640)
    result = run_cli("fix", str(path))
    assert result.returncode == 0, text(result)
    assert '"entry_point"' in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_fix_writes_through_a_link_and_keeps_the_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text(TYPO)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    result = run_cli("fix", str(link))
    assert result.returncode == 0, text(result)
    assert link.is_symlink()
    assert '"entry_point"' in real.read_text()


def test_a_new_output_gets_the_usual_mode(tmp_path):
    out = tmp_path / "report.txt"
    old = os.umask(0o022)
    try:
        result = run_cli("check", "-o", str(out), os.devnull)
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644, text(result)


@pytest.mark.parametrize("target", ["folder", "missing/report.txt"])
def test_o_into_a_folder_or_a_missing_folder_is_a_usage_error(tmp_path, target):
    (tmp_path / "folder").mkdir()
    (tmp_path / "op.json").write_text(TYPO)
    result = run_cli("check", "-o", str(tmp_path / target), str(tmp_path / "op.json"))
    assert result.returncode == 2, text(result)
    assert "cannot write" in result.stderr.decode()
    assert "Traceback" not in text(result)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "op.json"]


@pytest.fixture
def restore_sigterm():
    previous = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    yield
    for signum, handler in previous.items():
        signal.signal(signum, handler)


@pytest.mark.parametrize("how,code", [("sigterm", 143), ("ctrl-c", 130)])
def test_an_interrupted_write_leaves_no_temporary_file(tmp_path, monkeypatch, capsys,
                                                       restore_sigterm, how, code):
    (tmp_path / "op.json").write_text(TYPO)

    def interrupt(fd):  # arrives while the temporary file is being written
        if how == "sigterm":
            os.kill(os.getpid(), signal.SIGTERM)
        else:
            raise KeyboardInterrupt

    monkeypatch.setattr(fsutil.os, "fsync", interrupt)
    assert main(["check", "-o", str(tmp_path / "report.txt"), str(tmp_path / "op.json")]) \
        == code
    assert sorted(p.name for p in tmp_path.iterdir()) == ["op.json"]
    err = capsys.readouterr().err
    assert "Traceback" not in err and ("interrupted" in err or "terminated" in err)
