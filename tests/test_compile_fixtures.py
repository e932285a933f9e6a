"""fixtures/glsl: the compile layer reports exactly its share of each file's expected codes.

expected.json lists every code the full checker must report; the compile layer owns the
VKS3xx and VKS91x codes, so those must match exactly, positions included.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tosa_vkshader.check import finish
from tosa_vkshader.compile import CompileRequest, compile_many
from tosa_vkshader.compile.compiler import REFERENCE, REFERENCE_ENV, locate_reference
from tosa_vkshader.config import Options
from tosa_vkshader.sources.json_source import read_json

from compile_helpers import is_spirv
from conftest import FIXTURES

OWN = ("VKS3", "VKS91")
CASES = [(folder / name, expected)
         for folder in sorted((FIXTURES / "glsl").iterdir())
         for name, expected in json.loads((folder / "expected.json").read_text()).items()]


@pytest.fixture(scope="module", params=["shaderc", "reference"])
def compiled(request, tmp_path_factory):
    """All fixtures in one compile_many call, as a multi-op check would do it; once with
    shaderc's glslc and once with the reference runtime's compiler (the scenario runner's
    glslc, for the GLSL fixtures), which must report the same codes at the same places."""
    mp = pytest.MonkeyPatch()
    mp.setenv("TOSA_VKSHADER_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    if request.param == "reference":
        mp.delenv(REFERENCE_ENV)
        if locate_reference() is None:
            mp.undo()
            pytest.skip("the scenario-runner wheel (with its glslc) is not installed")
    sources, requests = [], []
    for path, _ in CASES:
        source = read_json(path.read_bytes(), str(path), Options())
        attrs = source.ops[0].attributes
        sources.append(source)
        requests.append(CompileRequest(attrs["shader_code"], attrs["shader_language"],
                                       attrs["entry_point"]))
    results = compile_many(requests)
    mp.undo()
    if request.param == "reference":
        kinds = {r.compiler.kind for r, q in zip(results, requests, strict=True)
                 if q.language == "GLSL" and r.compiler is not None}
        assert kinds == {REFERENCE}
    return {path: (source, result)
            for (path, _), source, result in zip(CASES, sources, results, strict=True)}


def test_every_folder_has_cases():
    folders = {path.parent.name for path, _ in CASES}
    assert folders == {"valid", "invalid"}
    assert all(path.exists() for path, _ in CASES)


@pytest.mark.parametrize("path,expected", CASES,
                         ids=[f"{p.parent.name}/{p.name}" for p, _ in CASES])
def test_compile_layer_codes_and_positions(compiled, path, expected):
    source, result = compiled[path]
    found = finish(result.diagnostics, source.ops[0], str(path), Options())
    want = [e for e in expected if e.startswith(OWN)]
    assert sorted(d.code for d in found) == sorted(e.split("@")[0] for e in want), found
    positions = {f"{d.code}@{d.location.line}:{d.location.column}" for d in found}
    assert {e for e in want if "@" in e} <= positions, found
    if path.parent.name == "valid":
        assert is_spirv(result.spirv)


def processes_for(glslc) -> int:
    """One glslc process for the run; two with a glslang before 12.1, which compiles the
    HLSL fixtures for SPIR-V 1.3 (a process of their own) and the GLSL for SPIR-V 1.6."""
    from tosa_vkshader.compile.compiler import compiler_info

    return 2 if compiler_info(str(glslc.path), 10).glslang_version < (12, 1, 0) else 1


def test_check_compiles_every_shader_of_a_run_in_one_glslc_process(tmp_path, monkeypatch):
    from tosa_vkshader.api import check_paths

    from compile_helpers import Glslc

    glslc = Glslc(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{glslc.path.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(tmp_path / "cache"))
    from tosa_vkshader.config_file import load_options

    reports = check_paths([FIXTURES / "glsl"], load_options(FIXTURES))  # skips expected.json
    assert len(reports) == len(CASES)
    assert len(glslc.compile_runs()) == processes_for(glslc)
    by_name = {Path(r.path).name: r for r in reports}
    assert "VKS300" in by_name["glsl-syntax-error.json"].codes
    assert [d.code for d in by_name["buffer-scale.json"].diagnostics] == ["VKS430"]
