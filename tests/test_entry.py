"""How a newcomer first meets the tool: `python -m tosa_vkshader`, the console script and
`--version`, which a commit hook or a shell prompt pays for on every call."""

from __future__ import annotations

import subprocess
import sys

from tosa_vkshader import __version__

from conftest import FIXTURES


def _python(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120)


def test_python_dash_m_runs_the_command_line():
    done = _python("-m", "tosa_vkshader", "check", str(FIXTURES / "invalid" /
                                                       "leading-zero-index.json"))
    assert done.returncode == 1
    assert "error[VKS111]" in done.stdout
    assert _python("-m", "tosa_vkshader", "--version").stdout == f"tosa-vkshader {__version__}\n"


def test_version_imports_no_command_and_no_checker():
    """`--version` is answered before any command module, the checker or pydantic loads."""
    probe = ("import sys; from tosa_vkshader.cli import main; main(['--version']); "
             "loaded = sorted(m for m in sys.modules if m.startswith('tosa_vkshader.') "
             "or m == 'pydantic'); print('LOADED', loaded)")
    done = _python("-c", probe)
    assert done.stdout.splitlines() == [
        f"tosa-vkshader {__version__}", "LOADED ['tosa_vkshader.cli', 'tosa_vkshader.version']",
    ], done.stderr


def test_importing_the_package_loads_the_api_only_when_used():
    probe = ("import sys, tosa_vkshader as t; before = 'tosa_vkshader.api' in sys.modules; "
             "ok = t.validate({'entry_point': 'main', 'workgroup_sizes': [1, 1, 1]}).ok; "
             "print(before, ok, t.Attributes.__name__, 'validate' in dir(t))")
    assert _python("-c", probe).stdout.split() == ["False", "True", "Attributes", "True"]
