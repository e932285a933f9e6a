"""The pre-commit hook, installed by pre-commit from this checkout into a throwaway
repository, refuses a commit with a broken attribute file or model and lets a good one in.

Offline: pre-commit builds the hook's environment (language: python) with pip from the
wheels scripts/bootstrap.sh keeps in .venv/wheelhouse, with every package index turned off.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT

# scripts/bootstrap.sh keeps the wheels in the virtual environment that runs the tests.
WHEELHOUSE = Path(sys.prefix) / "wheelhouse"
pytestmark = pytest.mark.slow
GOOD_OP = {"entry_point": "main", "workgroup_sizes": [8, 8, 1],
           "input_0_binding": 0, "input_0_descriptorset": 0,
           "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
           "input_0_vkformat": "VK_FORMAT_R32_SFLOAT",
           "output_0_binding": 1, "output_0_descriptorset": 0,
           "output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
           "output_0_vkformat": "VK_FORMAT_R32_SFLOAT"}


def _git(cwd: Path, *args: str, env: dict | None = None, check: bool = True):
    return subprocess.run(["git", "-c", "user.name=Test", "-c", "user.email=test@example.com",
                           "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false",
                           *args], cwd=cwd, env=env, capture_output=True, text=True,
                          check=check)


def _snapshot_of_this_checkout(target: Path) -> str:
    """This working tree (tracked and new files, uncommitted edits included) as a commit
    of its own repository: what a user's config would name as `repo` and `rev`."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    _git(target, "init", "-q")
    _git(target, "add", "-A")
    _git(target, "commit", "-q", "-m", "snapshot")
    return _git(target, "rev-parse", "HEAD").stdout.strip()


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> tuple[Path, dict]:
    if not (WHEELHOUSE / ".complete").is_file():
        pytest.fail("run scripts/bootstrap.sh: it downloads the wheels this test installs "
                    "the hook from")
    base = tmp_path_factory.mktemp("hook")
    hook_repo = base / "tosa-vkshader"
    hook_repo.mkdir()
    rev = _snapshot_of_this_checkout(hook_repo)
    work = base / "models"
    work.mkdir()
    _git(work, "init", "-q")
    (work / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {hook_repo}\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        "      - id: tosa-vkshader\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUALENV_"))}
    env.update({
        "PRE_COMMIT_HOME": str(base / "pre-commit-cache"),
        "PIP_NO_INDEX": "1",  # no package index, only the wheelhouse
        "PIP_FIND_LINKS": str(WHEELHOUSE),
        "PIP_CONFIG_FILE": os.devnull,
        "VIRTUALENV_NO_PERIODIC_UPDATE": "1",
    })
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=work, env=env,
                   check=True, capture_output=True)
    _git(work, "add", ".pre-commit-config.yaml")
    first = _git(work, "commit", "-q", "-m", "config", env=env, check=False)
    assert first.returncode == 0, first.stdout + first.stderr
    return work, env


def _commit(work: Path, env: dict, message: str):
    _git(work, "add", "-A")
    return _git(work, "commit", "-m", message, env=env, check=False)


def _head(work: Path) -> str:
    return _git(work, "log", "-1", "--format=%s").stdout.strip()


def test_a_commit_with_a_broken_attribute_file_is_refused(repo):
    work, env = repo
    bad = dict(GOOD_OP)
    bad["input_01_binding"] = bad.pop("input_0_binding")
    (work / "op.json").write_text(json.dumps(bad, indent=2) + "\n")
    result = _commit(work, env, "broken attributes")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "tosa-vkshader" in output and "Failed" in output
    assert "op.json:" in output and "error[VKS111] key `input_01_binding`" in output
    assert _head(work) == "config"
    (work / "op.json").unlink()
    _git(work, "add", "-A")


def test_a_corrupted_op_is_refused_not_skipped(repo):
    """Bytes that are not UTF-8 or not JSON are an error at the hook as everywhere, even
    when nothing in them looks like an op key."""
    work, env = repo
    text = json.dumps(GOOD_OP, indent=2).encode()
    (work / "latin1.json").write_bytes(b'{"caf\xe9": 1}\n')
    (work / "truncated.json").write_bytes(text[:7])
    result = _commit(work, env, "corrupted ops")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "latin1.json:1:6: error[VKS101]" in output
    assert "truncated.json:" in output and "error[VKS100]" in output
    assert "skipped" not in output
    for name in ("latin1.json", "truncated.json"):
        (work / name).unlink()
    _git(work, "add", "-A")


def test_a_commit_with_a_broken_model_is_refused_with_the_mlir_position(repo):
    work, env = repo
    shutil.copy(FIXTURES / "models" / "unsigned.mlir", work / "model.mlir")
    result = _commit(work, env, "broken model")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "model.mlir:11:499: error[VKS514]" in output
    assert _head(work) == "config"
    (work / "model.mlir").unlink()
    _git(work, "add", "-A")


def test_a_tosa_file_is_not_let_through_without_its_reader(repo):
    work, env = repo
    shutil.copy(FIXTURES / "models" / "dispatch" / "dispatch.tosa", work / "model.tosa")
    result = _commit(work, env, "a .tosa without tosa-tools in the hook")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "error[VKS930]" in output and "additional_dependencies" in output
    (work / "model.tosa").unlink()
    _git(work, "add", "-A")


def test_good_attribute_files_and_models_are_committed(repo):
    work, env = repo
    (work / "op.json").write_text(json.dumps(GOOD_OP, indent=2) + "\n")
    model = (FIXTURES / "models" / "unsigned.mlir").read_text()
    model = model.replace("VK_FORMAT_R16_SFLOAT", "VK_FORMAT_R16_UINT")  # fix the mistake
    (work / "model.mlir").write_text(model)
    (work / "notes.txt").write_text("not for the hook\n")
    result = _commit(work, env, "good files")
    output = result.stdout + result.stderr
    # A warning (VKS515 in the model) does not block the commit; errors do.
    assert result.returncode == 0, output
    assert _head(work) == "good files"


def _readme_local_hook() -> str:
    """The first YAML block of the README's pre-commit section, exactly as printed."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## pre-commit hook"):]
    block = section[section.index("```yaml\n") + len("```yaml\n"):]
    return block[:block.index("```")]


def test_the_readme_snippet_blocks_a_broken_op_and_leaves_other_json_alone(tmp_path):
    """Copied from the README into a new repository holding a good op, a broken op, a
    package.json and a tsconfig.json with comments: only the broken op blocks the commit."""
    config = _readme_local_hook()
    assert "repo: local" in config and "entry: tosa-vkshader check" in config
    # `tosa-vkshader` on PATH, as the README's Install section leaves it: this checkout.
    shims = tmp_path / "bin"
    shims.mkdir()
    shim = shims / "tosa-vkshader"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m tosa_vkshader "$@"\n')
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update({"PATH": f"{shims}{os.pathsep}{env.get('PATH', '')}",
                "PYTHONPATH": str(ROOT / "src"),
                "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache")})
    work = tmp_path / "app"
    work.mkdir()
    _git(work, "init", "-q")
    (work / ".pre-commit-config.yaml").write_text(config)
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=work, env=env,
                   check=True, capture_output=True)
    (work / "package.json").write_text('{"name": "app", "version": "1.0.0",\n'
                                       ' "scripts": {"build": "tsc"}}\n')
    (work / "tsconfig.json").write_text('{\n  // comments are allowed here\n'
                                        '  "compilerOptions": {"strict": true},\n}\n')
    (work / "ops").mkdir()
    (work / "ops" / "good.json").write_text(json.dumps(GOOD_OP, indent=2) + "\n")
    broken = dict(GOOD_OP)
    broken["input_01_binding"] = broken.pop("input_0_binding")
    (work / "ops" / "broken.json").write_text(json.dumps(broken, indent=2) + "\n")

    refused = _commit(work, env, "everything")
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0, output
    assert "ops/broken.json:" in output and "error[VKS111] key `input_01_binding`" in output
    errors = [line for line in output.splitlines() if ": error[" in line]
    assert errors and all(line.startswith("ops/broken.json:") for line in errors), output
    # Named by pre-commit, the other JSON files get a note, never an error.
    assert "package.json:1:1: info[VKS935] skipped package.json" in output
    assert "tsconfig.json:1:1: info[VKS935] skipped tsconfig.json" in output

    (work / "ops" / "broken.json").unlink()
    accepted = _commit(work, env, "without the broken op")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    committed = _git(work, "ls-files").stdout.split()
    assert {"package.json", "tsconfig.json", "ops/good.json"} <= set(committed)
