"""Which line of a GLSL/HLSL shader a cross-check finding names: the declaration the
compiled module's resource or local size comes from, found only when that is certain.
Comments, line splices, multi-line layouts and `#define`d numbers are read as the
compiler reads them; a declaration written twice, made by a macro or hidden behind a
macro name gives no line rather than a wrong one.

Each op points output_0 at binding 2 while the shader writes `dst` at binding 1: the
finding (VKS412, "did you mean binding 1 (dst)?") is about the declaration of `dst`."""

from __future__ import annotations

import json

import pytest

from tosa_vkshader import check_file, validate

from conftest import FIXTURES

BASE = json.loads((FIXTURES / "glsl" / "valid" / "buffer-scale.json").read_text())
HEAD = "#version 460\nlayout(local_size_x = 8) in;\n"
SRC = "layout(set = 0, binding = 0) readonly buffer Input { float data[]; } src;\n"
DST = "layout(set = 0, binding = 1) writeonly buffer Output { float data[]; } dst;\n"
MAIN = "void main() { uint i = gl_GlobalInvocationID.x; dst.data[i] = src.data[i]; }\n"


def _dangling(shader: str, language: str = "GLSL", **changes):
    attrs = dict(BASE, shader_code=shader, shader_language=language, output_0_binding=2,
                 **changes)
    found = [d for d in validate(attrs).diagnostics if d.code == "VKS412"]
    assert len(found) == 1, validate(attrs).diagnostics
    return found[0]


def _line_of(shader: str, diag) -> str | None:
    position = diag.shader_position
    if position is None:
        return None
    return shader.split("\n")[position.line - 1][position.column - 1:]


def test_the_plain_declaration():
    shader = HEAD + SRC + DST + MAIN
    assert _line_of(shader, _dangling(shader)) == DST.rstrip("\n")


@pytest.mark.parametrize("decoy", [
    "// " + DST,
    "/* " + DST + "*/\n",
    "/*\n" + DST + "*/\n",
], ids=["line-comment", "block-comment", "block-comment-over-lines"])
def test_a_declaration_in_a_comment_is_not_the_one(decoy):
    shader = HEAD + decoy + SRC + DST + MAIN
    diag = _dangling(shader)
    lines = shader.split("\n")
    assert diag.shader_position.line == len(lines) - lines[::-1].index(DST.rstrip("\n"))


def test_a_layout_over_several_lines_is_found_at_its_start():
    dst = ("layout(set = 0,\n       binding = 1)\nwriteonly buffer Output {\n"
           "    float data[];\n} dst;\n")
    shader = HEAD + SRC + dst + MAIN
    diag = _dangling(shader)
    assert (diag.shader_position.line, diag.shader_position.column) == (4, 1)
    assert _line_of(shader, diag) == "layout(set = 0,"


def test_a_line_splice_keeps_the_line_numbers_of_the_source():
    shader = HEAD + "layout(set = 0, \\\nbinding = 0) readonly buffer Input " \
        "{ float data[]; } src;\n" + DST + MAIN
    assert _line_of(shader, _dangling(shader)) == DST.rstrip("\n")


def test_a_binding_given_by_a_define_is_read():
    dst = DST.replace("binding = 1", "binding = OUT_BINDING")
    shader = HEAD + "#define OUT_BINDING 1\n" + SRC + dst + MAIN
    assert _line_of(shader, _dangling(shader)) == dst.rstrip("\n")


def test_crlf_line_ends_count_as_one_line():
    shader = (HEAD + SRC + DST + MAIN).replace("\n", "\r\n")
    diag = _dangling(shader)
    assert diag.shader_position.line == 4 and diag.shader_position.column == 1


def test_a_declaration_in_both_branches_of_an_if_gives_no_line():
    shader = (HEAD + SRC + "#ifdef WIDE\n" + DST.replace("float data", "double data")
              + "#else\n" + DST + "#endif\n" + MAIN)
    diag = _dangling(shader)
    assert diag.hint == "did you mean descriptorset 0, binding 1 (dst)?"  # still reported
    assert diag.shader_position is None


def test_a_declaration_made_by_a_macro_gives_no_line():
    shader = (HEAD + SRC + "#define OUTPUT(n) layout(set = 0, binding = 1) writeonly "
              "buffer Output { float data[]; } n;\nOUTPUT(dst)\n" + MAIN)
    assert _dangling(shader).shader_position is None


def test_a_name_that_is_a_macro_gives_no_line():
    # `dst` in the source is not the `dst` of the module: the macro renames it.
    shader = (HEAD + "#define result dst\n" + SRC
              + DST.replace("} dst;", "} result;") + MAIN)
    assert _dangling(shader).shader_position is None


def test_a_lone_declaration_in_dead_code_is_not_taken_for_the_real_one():
    # The compiler sees the macro's declaration (binding 1); the text's only `dst` says
    # binding 5: the numbers disagree with the module, so no line.
    shader = (HEAD + SRC + "#define OUTPUT layout(set = 0, binding = 1) writeonly buffer "
              "Output { float data[]; } dst;\n#if 0\n" + DST.replace("binding = 1", "binding = 5")
              + "#else\nOUTPUT\n#endif\n" + MAIN)
    assert _dangling(shader).shader_position is None


def test_a_define_given_twice_is_not_read_but_the_name_still_finds_the_declaration():
    dst = DST.replace("binding = 1", "binding = OUT_BINDING")
    shader = HEAD + "#define OUT_BINDING 1\n#undef OUT_BINDING\n#define OUT_BINDING 1\n" \
        + SRC + dst + MAIN
    assert _line_of(shader, _dangling(shader)) == dst.rstrip("\n")


def test_an_anonymous_block_is_found_by_its_block_name():
    shader = (HEAD + SRC + "layout(set = 0, binding = 1) writeonly buffer Output "
              "{ float o[]; };\n"
              "void main() { uint i = gl_GlobalInvocationID.x; o[i] = src.data[i]; }\n")
    diag = _dangling(shader)
    assert diag.hint == "did you mean descriptorset 0, binding 1 (Output)?"
    assert _line_of(shader, diag).startswith("layout(set = 0, binding = 1) writeonly")


HLSL = """// two kernels in one file
[[vk::binding(0, 0)]] Buffer<float> src;
RWBuffer<float> dst : register(u1);

[numthreads(64, 1, 1)]
void other(uint3 id : SV_DispatchThreadID) { dst[id.x] = 0; }

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { dst[id.x] = src[id.x]; }
"""


def test_hlsl_register_and_the_entry_points_numthreads():
    diag = _dangling(HLSL, "HLSL")
    assert _line_of(HLSL, diag) == "RWBuffer<float> dst : register(u1);"
    attrs = dict(BASE, shader_code=HLSL, shader_language="HLSL", workgroup_sizes=[8, 1, 1])
    [local] = [d for d in validate(attrs).diagnostics if d.code == "VKS430"]
    assert _line_of(HLSL, local) == "[numthreads(8, 1, 1)]"


def test_ops_sharing_one_module_each_get_their_own_lines(tmp_path):
    # The same module (comments change no byte of it), two sources: two line numbers.
    plain = HEAD + SRC + DST + MAIN
    commented = "// a comment line\n" + plain
    ops = [dict(BASE, shader_code=code, output_0_binding=2) for code in (plain, commented)]
    path = tmp_path / "ops.json"
    path.write_text(json.dumps(ops, indent=1))
    lines = sorted(d.shader_position.line for d in check_file(path).diagnostics
                   if d.code == "VKS412")
    assert lines == [4, 5]
