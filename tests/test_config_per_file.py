"""`[tool.tosa-vkshader]` is found from each checked file's folder upwards (like ruff), not
from the current directory; `--config` still names one for every file."""

from __future__ import annotations

import json

from tosa_vkshader import check_paths
from tosa_vkshader.cli import main
from tosa_vkshader.config_file import ConfigResolver

# One bad entry point: VKS201, the only error, unless a config ignores it.
BAD_ENTRY = {"entry_point": "main()", "workgroup_sizes": [1, 1, 1]}
IGNORE_VKS201 = '[tool.tosa-vkshader]\nignore = ["VKS201"]\n'


def _project(folder, config: str | None, name: str = "op.json"):
    folder.mkdir(parents=True, exist_ok=True)
    if config is not None:
        (folder / "pyproject.toml").write_text(config)
    path = folder / name
    path.write_text(json.dumps(BAD_ENTRY))
    return path


def _codes(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_each_file_gets_the_config_nearest_to_it(tmp_path, monkeypatch, capsys):
    quiet = _project(tmp_path / "quiet", IGNORE_VKS201)
    strict = _project(tmp_path / "strict", "[tool.tosa-vkshader]\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out = _codes(capsys, "check", str(quiet), str(strict))
    assert code == 1
    assert f"{strict}:1:17: error[VKS201]" in out
    assert f"{quiet}:" not in out


def test_the_current_directory_config_does_not_apply_to_files_elsewhere(
        tmp_path, monkeypatch, capsys):
    (tmp_path / "cwd").mkdir()
    (tmp_path / "cwd" / "pyproject.toml").write_text(IGNORE_VKS201)
    op = _project(tmp_path / "models", None)
    monkeypatch.chdir(tmp_path / "cwd")
    code, out = _codes(capsys, "check", str(op))
    assert code == 1 and "VKS201" in out
    # and a file below the current directory does get it
    below = _project(tmp_path / "cwd" / "sub", None)
    code, out = _codes(capsys, "check", str(below))
    assert code == 0 and "VKS201" not in out


def test_a_pyproject_without_the_table_is_passed_over(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text(IGNORE_VKS201)
    op = _project(tmp_path / "pkg", '[project]\nname = "pkg"\n')
    code, out = _codes(capsys, "check", str(op))
    assert code == 0 and "VKS201" not in out


def test_an_explicit_config_wins_for_every_file(tmp_path, capsys):
    op = _project(tmp_path / "strict", "[tool.tosa-vkshader]\n")
    explicit = tmp_path / "elsewhere.toml"
    explicit.write_text(IGNORE_VKS201)
    code, out = _codes(capsys, "check", "--config", str(explicit), str(op))
    assert code == 0 and "VKS201" not in out


def test_command_line_options_apply_on_top_of_each_files_config(tmp_path, capsys):
    quiet = _project(tmp_path / "quiet", IGNORE_VKS201)
    code, out = _codes(capsys, "check", "--select", "VKS1", str(quiet))
    assert code == 0 and "VKS201" not in out


def test_exclude_patterns_come_from_the_config_of_the_walked_files(tmp_path, capsys):
    _project(tmp_path / "a", '[tool.tosa-vkshader]\nexclude = ["skip-*.json"]\n',
             name="skip-me.json")
    _project(tmp_path / "b", "[tool.tosa-vkshader]\n", name="skip-me.json")
    reports = check_paths([tmp_path], config=ConfigResolver())
    assert [r.path for r in reports] == [str(tmp_path / "b" / "skip-me.json")]


def test_a_broken_config_near_a_file_is_a_usage_error(tmp_path, capsys):
    op = _project(tmp_path / "bad", '[tool.tosa-vkshader]\nselect = [VKS1]\n')
    code = main(["check", str(op)])
    err = capsys.readouterr().err
    assert code == 2 and "error[VKS901] cannot read" in err and "bad" in err


def test_stdin_uses_the_config_near_its_stdin_filename(tmp_path, monkeypatch, capsys):
    _project(tmp_path / "quiet", IGNORE_VKS201)
    monkeypatch.setattr("sys.stdin", _Stdin(json.dumps(BAD_ENTRY).encode()))
    code, out = _codes(capsys, "check", "-", "--stdin-filename",
                       str(tmp_path / "quiet" / "new.json"))
    assert code == 0 and "VKS201" not in out


class _Stdin:
    def __init__(self, data: bytes) -> None:
        import io

        self.buffer = io.BytesIO(data)
