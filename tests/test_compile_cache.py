"""The compile cache: same answers as a fresh compile, atomic, bounded, optional."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tosa_vkshader.compile import CompileOptions, CompileRequest, compile_many

from compile_helpers import Glslc, codes, is_spirv

SOURCES = ["void main() { }",
           "#version 460\nvoid main() {\n  int x = ;\n}\n",
           "#version 460\n#extension GL_EXT_no_such_thing : enable\nvoid main() {}\n"]


@pytest.fixture
def glslc(tmp_path):
    return Glslc(tmp_path / "bin")


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(folder))
    return folder


def requests(pointer="/shader_code"):
    return [CompileRequest(s, "GLSL", code_pointer=pointer) for s in SOURCES]


def entries(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*.json") if p.name != "compilers.json"]


def test_a_warm_run_answers_from_the_cache_exactly_like_a_fresh_compile(glslc, cache_dir):
    options = CompileOptions(glslc=str(glslc.path))
    fresh = compile_many(requests(), options)
    warm = compile_many(requests(), options)
    assert [r.cached for r in fresh] == [False] * 3 and [r.cached for r in warm] == [True] * 3
    assert [(r.spirv, r.diagnostics) for r in warm] == [(r.spirv, r.diagnostics) for r in fresh]
    assert codes(warm[1]) == ["VKS300"] and codes(warm[2]) == ["VKS301"]
    assert len(glslc.compile_runs()) == 1  # the warm run started no compiler at all
    assert len(entries(cache_dir)) == 3


def test_cached_diagnostics_take_the_pointers_of_the_new_request(glslc, cache_dir):
    options = CompileOptions(glslc=str(glslc.path))
    compile_many(requests(), options)
    moved = compile_many(requests("/ops/3/shader_code"), options)
    assert moved[1].cached and moved[1].diagnostics[0].pointer == "/ops/3/shader_code"


def test_no_cache_compiles_every_time_and_writes_nothing(glslc, cache_dir):
    options = CompileOptions(glslc=str(glslc.path), cache=False)
    compile_many(requests(), options)
    again = compile_many(requests(), options)
    assert not any(r.cached for r in again)
    assert len(glslc.compile_runs()) == 2
    assert not cache_dir.exists()


def test_another_compiler_or_other_options_miss_the_cache(tmp_path, glslc, cache_dir):
    compile_many(requests(), CompileOptions(glslc=str(glslc.path)))
    other = Glslc(tmp_path / "other", version="shaderc v2099.1\nglslang 99.0.0")
    assert not any(r.cached for r in compile_many(requests(),
                                                  CompileOptions(glslc=str(other.path))))
    assert not any(r.cached for r in compile_many(
        requests(), CompileOptions(glslc=str(glslc.path), macros=(("X", "1"),))))


def test_a_replaced_compiler_binary_misses_the_cache(glslc, cache_dir):
    options = CompileOptions(glslc=str(glslc.path))
    compile_many(requests(), options)
    later = glslc.path.stat().st_mtime + 60
    os.utime(glslc.path, (later, later))  # e.g. a package upgrade, same version text
    assert not any(r.cached for r in compile_many(requests(), options))
    assert all(r.cached for r in compile_many(requests(), options))


def test_a_corrupt_entry_is_replaced_by_a_fresh_compile(glslc, cache_dir):
    options = CompileOptions(glslc=str(glslc.path))
    fresh = compile_many(requests(), options)
    for path in entries(cache_dir):
        path.write_bytes(b'{"format": 1, "spirv": "not base64!", "diagnostics": []}')
    again = compile_many(requests(), options)
    assert not any(r.cached for r in again)
    assert [(r.spirv, r.diagnostics) for r in again] == [(r.spirv, r.diagnostics) for r in fresh]


def test_the_cache_stays_within_its_size_bound(glslc, cache_dir):
    options = CompileOptions(glslc=str(glslc.path), cache_max_bytes=4000)
    sources = [f"#version 460\nvoid main() {{ float v{i} = {i}.0; }}\n" for i in range(30)]
    for start in range(0, 30, 10):
        results = compile_many([CompileRequest(s, "GLSL") for s in sources[start:start + 10]],
                               options)
        assert all(is_spirv(r.spirv) for r in results)
        assert sum(p.stat().st_size for p in entries(cache_dir)) <= 4000
    assert entries(cache_dir)
    assert not list(cache_dir.rglob(".tmp-*"))  # every write finished with a rename


def test_an_unusable_cache_is_one_warning_and_changes_nothing_else(tmp_path, glslc,
                                                                   monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(blocker))
    results = compile_many(requests(), CompileOptions(glslc=str(glslc.path)))
    assert codes(results[0]) == ["VKS914"] and is_spirv(results[0].spirv)
    assert codes(results[1]) == ["VKS300"] and codes(results[2]) == ["VKS301"]


def test_explicit_cache_dir_option_wins_over_the_environment(tmp_path, glslc, cache_dir):
    chosen = tmp_path / "chosen"
    compile_many(requests(), CompileOptions(glslc=str(glslc.path), cache_dir=str(chosen)))
    assert len(entries(chosen)) == 3 and not cache_dir.exists()
