"""A pyproject.toml is parsed once per content: later commands read what it says about the
tool from the cache, without tomllib, and an edited file is never answered from an old
parse."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tosa_vkshader.config_file import ConfigError, load_options

CONFIG = ('[project]\nname = "x"\n\n'
          '[tool.tosa-vkshader]\nignore = ["VKS201"]\nmax-file-size = 4096\n')


def _project(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(text, encoding="utf-8")
    return folder


def test_a_second_command_reads_the_config_without_tomllib(tmp_path):
    folder = _project(tmp_path / "project", CONFIG)
    (folder / "op.json").write_text('{"entry_point": "main()", "workgroup_sizes": [1, 1, 1]}')
    probe = ("import sys; from tosa_vkshader.cli import main; "
             "code = main(['check', 'op.json']); "
             "print('EXIT', code, 'TOMLLIB', 'tomllib' in sys.modules)")
    env = {**os.environ, "TOSA_VKSHADER_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           timeout=60, env=env, cwd=folder) for _ in range(2)]
    # The config ignores VKS201 (the only finding) both times: exit 0.
    assert "EXIT 0 TOMLLIB True" in runs[0].stdout, runs[0].stdout + runs[0].stderr
    assert "EXIT 0 TOMLLIB False" in runs[1].stdout, runs[1].stdout + runs[1].stderr


def test_an_edited_config_is_read_anew_even_with_the_same_size_and_time(tmp_path):
    folder = _project(tmp_path / "p", CONFIG)
    assert load_options(folder).ignore == ("VKS201",)
    config = folder / "pyproject.toml"
    stat = config.stat()
    config.write_text(CONFIG.replace("VKS201", "VKS202"), encoding="utf-8")
    os.utime(config, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same mtime
    assert load_options(folder).ignore == ("VKS202",)


@pytest.mark.parametrize("text, message", [
    ("[tool.tosa-vkshader\nignore = 1\n", "cannot read"),
    ("[tool.tosa-vkshader]\nignore = 1979-05-27\n", "ignore"),
    ("tool = 5\n# tosa-vkshader\n", "`tool` must be a table, got 5"),
])
def test_configs_that_are_refused_are_refused_every_time(tmp_path, text, message):
    folder = _project(tmp_path / "p", text)
    for _ in range(2):  # the second time would come from the cache if it had been kept
        with pytest.raises(ConfigError) as caught:
            load_options(folder)
        assert message in caught.value.diagnostics[0].message


def test_an_unwritable_cache_only_costs_the_parse(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(blocker / "cache"))
    folder = _project(tmp_path / "p", CONFIG)
    for _ in range(2):
        assert load_options(folder).max_file_size == 4096
