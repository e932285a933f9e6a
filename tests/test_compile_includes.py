"""The include policy: off by default; when on, only files inside the configured folders."""

from __future__ import annotations

import os
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tosa_vkshader.compile import CompileOptions, CompileRequest, compile_many

from compile_helpers import REAL_GLSLC, Glslc, codes, is_spirv

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
    plain = run("void main() {}", glslc, allow_includes=True,
                include_dirs=(str(tmp_path / "nope"),))
    assert codes(plain) == ["VKS915"] and is_spirv(plain.spirv)  # a warning only


def test_changing_an_included_file_invalidates_the_cache(glslc, include_dir):
    source = MAIN.format(include='#include "helper.glsl"')
    options = {"allow_includes": True, "include_dirs": (str(include_dir),)}
    assert run(source, glslc, **options).diagnostics == []
    (include_dir / "helper.glsl").write_text("float helper() { return 1.0 }\n")
    again = run(source, glslc, **options)
    assert not again.cached and codes(again) == ["VKS300"]


@pytest.mark.parametrize("spelling", [
    '#/*\n*/include "helper.glsl"',  # a comment spanning lines is one space
    '# /* a\r\n b */ include "helper.glsl"',
    '/* x\n*/ #include "helper.glsl"',
])
def test_comments_spanning_lines_cannot_hide_an_include(glslc, spelling):
    result = run(MAIN.format(include=spelling), glslc)
    assert codes(result) == ["VKS303"] and result.spirv is None
    assert glslc.compile_runs() == []


# -- properties: however an #include is dressed up, it is found before glslc sees it ------

_FILL = st.lists(st.sampled_from([" ", "\t", "/* c */", "/*\n*/", "/* a\r\nb */", "\\\n",
                                  "\\\r\n"]), max_size=3).map("".join)
_PREFIX = st.sampled_from(["", "void f();\n", "// x\r", "/* y\n*/", "#define A 1\n",
                           "#if 0\n#endif\n"])


def _dressed(prefix, before, mid, after):
    return f'{prefix}{before}#{mid}include{after}"p.glsl"\nvoid main() {{}}\n'


@settings(max_examples=200, deadline=None)
@given(prefix=_PREFIX, before=_FILL, mid=_FILL, after=_FILL)
def test_any_spelling_of_include_is_refused_without_running_glslc(prefix, before, mid, after):
    source = _dressed(prefix, before, mid, after)
    [result] = compile_many([CompileRequest(source, "GLSL")],
                            CompileOptions(glslc="/nonexistent/glslc"))
    # Blocked before the compiler is even looked for: no VKS910 here.
    assert codes(result) == ["VKS303"], source


def _glslc_includes(folder, source) -> bool:
    """Does glslc's own preprocessor (-E) pull p.glsl into ``source``?"""
    (folder / "p.glsl").write_text("int included_marker_q7;\n")
    (folder / "s.comp").write_text(source)
    done = subprocess.run([REAL_GLSLC, "-E", "-fshader-stage=compute", "s.comp"],
                          cwd=folder, capture_output=True, text=True, timeout=30)
    return "included_marker_q7" in done.stdout


def test_the_differential_harness_sees_glslc_include(tmp_path):
    assert _glslc_includes(tmp_path, '#version 460\n#/*\n*/include "p.glsl"\n')
    assert not _glslc_includes(tmp_path, '#version 460\n// #include "p.glsl"\n')


@settings(max_examples=25, deadline=None, derandomize=True)
@given(prefix=_PREFIX, before=_FILL, mid=_FILL, after=_FILL)
def test_whatever_glslc_would_include_the_scanner_refuses(tmp_path_factory, prefix, before,
                                                          mid, after):
    """Differential check against glslc's own preprocessor."""
    source = "#version 460\n" + _dressed(prefix, before, mid, after)
    if _glslc_includes(tmp_path_factory.mktemp("diff"), source):
        [result] = compile_many([CompileRequest(source, "GLSL")],
                                CompileOptions(glslc="/nonexistent/glslc"))
        assert codes(result) == ["VKS303"], source


def test_errors_in_headers_are_attributed_within_one_batch(glslc, include_dir):
    options = CompileOptions(glslc=str(glslc.path), allow_includes=True,
                             include_dirs=(str(include_dir),))
    results = compile_many([CompileRequest(MAIN.format(include=f'#include "{name}"'), "GLSL")
                            for name in ("helper.glsl", "broken.glsl", "nested.glsl")], options)
    assert [codes(r) for r in results] == [[], ["VKS300"], []]
    assert len(glslc.compile_runs()) == 1  # glslc's spelling of the header path was matched
