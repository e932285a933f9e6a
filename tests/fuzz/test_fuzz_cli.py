"""A bounded, deterministic fuzz campaign over the front doors (issue #14, item 8).

Each example builds a small folder of hostile inputs (attribute JSON, MLIR models,
.tosa bytes, SPIR-V, a pyproject.toml, odd paths) beside a secret that links point to,
then runs the real command line once over it, as a child process under a 1 GiB memory
ceiling. Whatever the input, the run must:

* exit 0, 1 or 2 (never a traceback, a MemoryError or a signal),
* leave no temporary or partial file behind,
* never print a byte of the secret, which lies outside the checked folder.

Derandomized with few examples per class: the whole module runs in about a minute on a
loaded two-core machine; raise ``FUZZ_EXAMPLES`` locally for a longer campaign.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from hostile_helpers import run_cli, text
from hostile_inputs import attribute_document, spirv_bytes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES

SECRET = "S3CRET-0f-the-n3ighbour"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "3"))
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


@st.composite
def mlir_model(draw) -> bytes:
    dims = draw(st.sampled_from(["4", "?", "9" * 30, "9" * 5000, "0", "4294967296"]))
    element = draw(st.sampled_from(["f32", "i8", "f64", "!quant.uniform<i8:f32, 0.1>", "x"]))
    t = f"tensor<{dims}x{element}>"
    escaped = json.dumps(draw(attribute_document()).decode())  # an MLIR string of the JSON
    text = (f"func.func @main(%arg0: {t}) -> {t} {{\n"
            f'  %0 = tosa.custom %arg0 {{domain_name = "com.arm.VulkanCustomShader", '
            f'operator_name = "op", implementation_attrs = {escaped}}} : ({t}) -> {t}\n'
            f"  return %0 : {t}\n}}\n")
    garbage = draw(st.sampled_from(["", "{" * 200, "tosa.custom " * 50, "\x00\xff"]))
    return (text + garbage).encode("utf-8", "surrogatepass")


@st.composite
def tosa_bytes(draw) -> bytes:
    data = bytearray((FIXTURES / "models" / "generic.tosa").read_bytes())
    for _ in range(draw(st.integers(0, 8))):
        at = draw(st.integers(0, len(data) - 1))
        data[at] = draw(st.integers(0, 255))
    return bytes(data[: draw(st.integers(0, len(data)))])


CONFIG = st.sampled_from([
    "", "tool = 5\n", "[tool]\ntosa-vkshader = 3\n",
    '[tool.tosa-vkshader]\ninclude-dirs = ["a\\u0000b"]\n',
    "[tool.tosa-vkshader]\nmax-file-size = 100\n",
    "[tool.tosa-vkshader]\nmax-depth = 1\n",
    '[tool.tosa-vkshader]\nselect = ["VKS\\u0000"]\n',
    "[tool.tosa-vkshader]\ncompile-timeout = inf\n",
    "[tool.tosa-vkshader]\nworkgroup-semantics = 5\n",
    "[tool.tosa-vkshader\n",
])

# -- one campaign: a folder, a secret beside it, the command line ---------------------


def _campaign(tmp_path: Path, files: dict[str, bytes], config: str,
              commands: tuple[tuple[str, ...], ...]) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.json"
    secret.write_text('{"' + SECRET + '": ' + "[" * 3)  # invalid: a reader would quote it
    tree = tmp_path / "tree"
    tree.mkdir()
    for name, data in files.items():
        (tree / name).write_bytes(data)
    (tree / "pyproject.toml").write_text(config)
    (tree / "leak.json").symlink_to(secret)
    (tree / "leak.mlir").symlink_to(secret)
    os.mkfifo(tree / "pipe.json")
    (tree / "folder.json").mkdir()
    before = {p.name for p in tree.iterdir()}
    for argv in commands:
        result = run_cli(*argv, cwd=tree)
        out = text(result)
        assert result.returncode in (0, 1, 2), (argv, out[-3000:])
        assert "Traceback" not in out, (argv, out[-3000:])
        assert SECRET not in out, argv
        left = {p.name for p in tree.iterdir()} - before - {"report.out"}
        assert not left, (argv, left)  # no temporary or partial file
    assert SECRET in secret.read_text()  # fix wrote nothing through the links


# Text goes through -o (the same reporter as the terminal's); SARIF shares JSON's writer.
CHECK_ALL_FORMATS = (("check", "--format", "json", "."), ("check", "--format", "github", "."),
                     ("check", "-o", "report.out", "."))


@FUZZ
@given(docs=st.lists(attribute_document(), min_size=1, max_size=4), config=CONFIG)
def test_attribute_files_in_every_format(tmp_path_factory, docs, config):
    files = {f"op{i}.json": d for i, d in enumerate(docs)}
    _campaign(tmp_path_factory.mktemp("json"), files, config,
              CHECK_ALL_FORMATS + (("fix", "."),))


@FUZZ
@given(models=st.lists(mlir_model(), min_size=1, max_size=3),
       tosa=st.lists(tosa_bytes(), max_size=2))
def test_models(tmp_path_factory, models, tosa):
    files = {f"m{i}.mlir": m for i, m in enumerate(models)}
    files.update({f"t{i}.tosa": t for i, t in enumerate(tosa)})
    _campaign(tmp_path_factory.mktemp("models"), files, "", (("check", "."),))


@FUZZ
@given(spirv=spirv_bytes(), doc=attribute_document())
def test_reflect_compile_and_emit(tmp_path_factory, spirv, doc):
    files = {"shader.spv": spirv, "op.json": doc}
    _campaign(tmp_path_factory.mktemp("spirv"), files, "", (
        ("reflect", "shader.spv"), ("reflect", "op.json"),
        ("compile", "op.json", "-o", "report.out"),
        ("emit", "mlir", "--operands", "tensor<4xf32>", "op.json"),
        ("emit", "tosa", "--operands", f"tensor<{'9' * 30}xf32>", "-o", "report.out",
         "op.json"),
    ))
