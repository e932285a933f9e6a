"""Files are read within limits and never block (issue #14, item 3).

Every test runs the real command line in a child process (see hostile_helpers): a read
that blocks on a FIFO ends in the helper's timeout and fails the test.
"""

from __future__ import annotations

import json
import os

import pytest
from hostile_helpers import run_cli, text

GOOD = ('{"entry_point": "main", "workgroup_sizes": [1, 1, 1], '
        '"input_0_binding": 0, "input_0_descriptorset": 0, '
        '"input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", '
        '"input_0_vkformat": "VK_FORMAT_R32_SFLOAT"}')


def _codes(result) -> list[str]:
    return [d["code"] for f in json.loads(result.stdout)["files"] for d in f["diagnostics"]]


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)  # nobody ever writes: a plain open() would wait for ever
    return path


def test_a_fifo_in_a_walked_folder_is_refused_not_waited_on(tmp_path, fifo):
    (tmp_path / "ok.json").write_text(GOOD)
    result = run_cli("check", "--format", "json", str(tmp_path))
    assert result.returncode == 1, text(result)
    report = json.loads(result.stdout)
    by_file = {os.path.basename(f["path"]): [d["code"] for d in f["diagnostics"]]
               for f in report["files"]}
    assert by_file == {"ok.json": [], "pipe.json": ["VKS941"]}


@pytest.mark.parametrize("command", [["reflect"], ["compile", "-o", "out.spv"],
                                     ["emit", "mlir"], ["fix"]])
def test_every_reader_refuses_a_fifo(tmp_path, fifo, command):
    result = run_cli(*command, str(fifo), cwd=tmp_path)
    assert result.returncode in (1, 2), text(result)
    assert "not a regular file" in text(result)
    assert "Traceback" not in text(result)
    assert not (tmp_path / "out.spv").exists()


def test_a_device_is_refused():
    result = run_cli("check", "--format", "json", "/dev/zero")
    assert result.returncode == 1, text(result)
    assert _codes(result) == ["VKS941"]


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.tosa-vkshader]\nmax-file-size = 1000\n")
    big = tmp_path / "big.json"
    big.write_text(GOOD[:-1] + ', "padding": "' + "x" * 5000 + '"}')
    for command in (["check", "--format", "json", str(big)],):
        result = run_cli(*command, cwd=tmp_path)
        assert result.returncode == 1, text(result)
        assert _codes(result) == ["VKS105"]
        assert "the limit is 1000 bytes" in result.stdout.decode()


def test_models_have_their_own_larger_limit(tmp_path):
    # Models carry their weights: a model over the attribute-file limit is still read,
    # up to max-model-size.
    (tmp_path / "pyproject.toml").write_text(
        "[tool.tosa-vkshader]\nmax-file-size = 1000\nmax-model-size = 4000\n")
    model = ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
             "  // " + "w" * 2000 + "\n  return %a : tensor<4xf32>\n}\n")
    (tmp_path / "model.mlir").write_text(model)
    (tmp_path / "huge.mlir").write_text(model.replace("w" * 2000, "w" * 5000))
    result = run_cli("check", "--format", "json", "model.mlir", cwd=tmp_path)
    assert result.returncode == 0, text(result)
    assert _codes(result) == ["VKS506"]  # read (no VKS105), and it has no custom op
    result = run_cli("check", "--format", "json", "huge.mlir", cwd=tmp_path)
    assert result.returncode == 1, text(result)
    assert _codes(result) == ["VKS105"]
    assert "the limit is 4000 bytes" in result.stdout.decode()


def test_standard_input_is_read_only_up_to_the_limit(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.tosa-vkshader]\nmax-file-size = 1000\n")
    result = run_cli("check", "--format", "json", "-", cwd=tmp_path,
                     stdin=b" " * 10_000_000 + GOOD.encode())
    assert result.returncode == 1, text(result)
    assert _codes(result) == ["VKS105"]


def test_a_link_out_of_a_walked_folder_is_noted_and_never_read(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.json"
    secret.write_text('{"TOP-SECRET-VALUE": 1')  # invalid JSON: a read would quote it
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "ok.json").write_text(GOOD)
    (tree / "sub" / "leak.json").symlink_to(secret)
    (tree / "sub" / "inside.json").symlink_to(tree / "ok.json")
    for form in ("text", "json", "sarif", "github"):
        result = run_cli("check", "--format", form, str(tree))
        assert result.returncode == 0, text(result)  # a note only
        assert "TOP-SECRET" not in text(result)
        assert "VKS940" in text(result)
    report = json.loads(run_cli("check", "--format", "json", str(tree)).stdout)
    by_file = {os.path.relpath(f["path"], tree): [d["code"] for d in f["diagnostics"]]
               for f in report["files"]}
    assert by_file == {"ok.json": [], "sub/inside.json": [], "sub/leak.json": ["VKS940"]}


def test_fix_never_rewrites_a_link_out_of_the_walked_folder(tmp_path):
    outside = tmp_path / "elsewhere.json"
    outside.write_text('{"entryPoint": "main", "workgroup_sizes": [1, 1, 1]}')
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link.json").symlink_to(outside)
    before = outside.read_bytes()
    result = run_cli("fix", str(tree))
    assert result.returncode == 0, text(result)
    assert outside.read_bytes() == before
