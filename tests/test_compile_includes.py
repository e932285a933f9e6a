"""The include policy: off by default; when on, only files inside the configured folders."""

from __future__ import annotations

import os

import pytest
from compile_helpers import Glslc, codes, is_spirv

from tosa_vkshader.compile import CompileOptions, CompileRequest, compile_many

MAIN = ("#version 460\n{include}\nlayout(local_size_x = 1) in;\n"
        "void main() {{ float x = helper(); }}\n")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TOSA_VKSHADER_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def glslc(tmp_path):
    return Glslc(tmp_path / "bin")


@pytest.fixture
def include_dir(tmp_path):
    root = tmp_path / "include"
    (root / "sub").mkdir(parents=True)
    (root / "helper.glsl").write_text("float helper() { return 1.0; }\n")
    (root / "nested.glsl").write_text('#include "sub/inner.glsl"\n')
    (root / "sub" / "inner.glsl").write_text("float helper() { return 2.0; }\n")
    (root / "broken.glsl").write_text("float helper() { return 1.0 }\n")
    (tmp_path / "secret.glsl").write_text("float helper() { return 42.0; }\n")
    return root


def run(source, glslc, **options):
    return compile_many([CompileRequest(source, "GLSL")],
                        CompileOptions(glslc=str(glslc.path), **options))[0]


@pytest.mark.parametrize("directive", [
    '#include "helper.glsl"',
    "#include <helper.glsl>",
    '  #  include "helper.glsl"',
    '/* a comment */ # /* another */ include "helper.glsl"',
    '#inc\\\nlude "helper.glsl"',  # a line continuation inside the directive name
    '// comment\r#include "helper.glsl"',  # a lone CR ends the comment for glslang
    '#include "/etc/passwd"',
])
def test_includes_are_off_by_default_whatever_the_spelling(glslc, directive):
    result = run(MAIN.format(include=directive), glslc)
    assert "VKS303" in codes(result) and set(codes(result)) == {"VKS303"}
    assert result.diagnostics[0].inner.line == 2
    assert result.spirv is None
    assert glslc.compile_runs() == []  # glslc never saw the source


def test_allowed_include_from_a_configured_folder_compiles(glslc, include_dir):
    result = run(MAIN.format(include='#include "helper.glsl"'), glslc,
                 allow_includes=True, include_dirs=(str(include_dir),))
    assert result.diagnostics == [] and is_spirv(result.spirv)


def test_nested_include_relative_to_the_including_file(glslc, include_dir):
    result = run(MAIN.format(include='#include "nested.glsl"'), glslc,
                 allow_includes=True, include_dirs=(str(include_dir),))
    assert result.diagnostics == [] and is_spirv(result.spirv)


def test_error_inside_an_included_file_points_at_the_include(glslc, include_dir):
    result = run(MAIN.format(include='#include "broken.glsl"'), glslc,
                 allow_includes=True, include_dirs=(str(include_dir),))
    [diag] = result.diagnostics
    assert diag.code == "VKS300" and "broken.glsl" in diag.message
    assert (diag.inner.line, diag.inner.column) == (2, 1)


@pytest.mark.parametrize("directive,why", [
    ('#include "/etc/passwd"', "absolute"),
    ('#include "../secret.glsl"', ".."),
    ('#include "sub/../../secret.glsl"', ".."),
    ('#include "sub\\\\..\\\\..\\\\secret.glsl"', ".."),
    ('#define P "helper.glsl"\n#include P', "literally"),
    ('#include "missing.glsl"', "not found"),
    ('#include "escape.glsl"', "outside"),
    ('#include "leaky.glsl"', ".."),
])
def test_includes_cannot_leave_the_configured_folders(glslc, include_dir, directive, why):
    (include_dir / "escape.glsl").symlink_to(include_dir.parent / "secret.glsl")
    (include_dir / "leaky.glsl").write_text('#include "../secret.glsl"\n')
    result = run(MAIN.format(include=directive), glslc,
                 allow_includes=True, include_dirs=(str(include_dir),))
    assert codes(result) == ["VKS304"], result.diagnostics
    assert why in result.diagnostics[0].message
    assert result.spirv is None
    assert glslc.compile_runs() == []


def test_symlinked_folder_inside_the_include_dir_may_not_lead_out(glslc, include_dir, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "helper.glsl").write_text("float helper() { return 3.0; }\n")
    os.symlink(outside, include_dir / "linked")
    result = run(MAIN.format(include='#include "linked/helper.glsl"'), glslc,
                 allow_includes=True, include_dirs=(str(include_dir),))
    assert codes(result) == ["VKS304"]


def test_allowed_includes_without_folders_or_with_a_missing_folder(glslc, tmp_path):
    source = MAIN.format(include='#include "helper.glsl"')
    assert codes(run(source, glslc, allow_includes=True)) == ["VKS304"]
    result = run(source, glslc, allow_includes=True, include_dirs=(str(tmp_path / "nope"),))
    assert sorted(codes(result)) == ["VKS304", "VKS915"]


def test_changing_an_included_file_invalidates_the_cache(glslc, include_dir):
    source = MAIN.format(include='#include "helper.glsl"')
    options = {"allow_includes": True, "include_dirs": (str(include_dir),)}
    assert run(source, glslc, **options).diagnostics == []
    (include_dir / "helper.glsl").write_text("float helper() { return 1.0 }\n")
    again = run(source, glslc, **options)
    assert not again.cached and codes(again) == ["VKS300"]
