"""A shader that no compiler gets through is answered at once, at every door, and the
compile time limits are those of a tool that must finish (about 10 s, the web's lower)."""

from __future__ import annotations

import json

from web_helpers import module_server

from tosa_vkshader import Options, validate
from tosa_vkshader.cli import main
from tosa_vkshader.web.options import Limits, web_options

server, client = module_server("compile-limits")

# 1.5 KB of GLSL whose macros expand 2^40-fold (the compiler would run until stopped).
BOMB = ("#version 460\nlayout(local_size_x = 64) in;\n"
        "layout(set = 0, binding = 0) buffer Data { float data[]; };\n"
        "// Every level doubles the one below: A40 is 2^40 copies of A0.\n"
        "#define A0 data[gl_GlobalInvocationID.x] += 1.0;\n"
        + "".join(f"#define A{i} A{i - 1} A{i - 1}\n" for i in range(1, 41))
        + "void main() {\n  // unrolled, surely\n  A40\n}\n")
BOMB += "// " + "padding " * ((1536 - len(BOMB)) // 8) + "\n"
# The same doubling through a function-like macro, nested at the use site.
NESTED = ("#version 460\nlayout(local_size_x = 1) in;\n#define TWICE(x) x x\n"
          "void main() { " + "TWICE(" * 40 + "barrier();" + ")" * 40 + " }\n")
OP = {"entry_point": "main", "workgroup_sizes": [64, 1, 1], "shader_language": "GLSL",
      "input_0_binding": 0, "input_0_descriptorset": 0,
      "input_0_vkformat": "VK_FORMAT_R32_SFLOAT",
      "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}


def test_the_bomb_is_what_the_issue_describes():
    assert 1400 <= len(BOMB) <= 1600


def test_the_doubling_macros_are_counted_before_compiling_at_every_door(tmp_path, capsys,
                                                                     client):
    for source in (BOMB, NESTED):
        report = validate({**OP, "shader_code": source}, Options(cache=False))
        (diag,) = [d for d in report.diagnostics if d.code == "VKS309"]
        assert diag.severity.label == "error" and "more than 100,000,000 tokens" in diag.message
        assert report.codes == ["VKS309"], report.diagnostics
    (tmp_path / "op.json").write_text(json.dumps({**OP, "shader_code": BOMB}, indent=2))
    (tmp_path / "bomb.comp").write_text(BOMB)
    assert main(["check", str(tmp_path / "op.json"), "--no-cache"]) == 1
    assert f"{tmp_path / 'op.json'}:" in capsys.readouterr().out
    assert main(["compile", str(tmp_path / "bomb.comp"), "-o", str(tmp_path / "b.spv")]) == 1
    assert "bomb.comp:48:3: error[VKS309]" in capsys.readouterr().err
    assert not (tmp_path / "b.spv").exists()
    assert main(["new", str(tmp_path / "bomb.comp"), "-o", str(tmp_path / "new.json")]) == 1
    assert "VKS309" in capsys.readouterr().err
    answer = client.post("/v1/check", json={"attributes": {**OP, "shader_code": BOMB}})
    assert answer.status_code == 200
    assert [d["code"] for d in answer.json()["files"][0]["diagnostics"]] == ["VKS309"]


def test_macros_that_stay_small_are_compiled():
    source = ("#version 460\nlayout(local_size_x = 64) in;\n"
              "layout(set = 0, binding = 0) buffer Data { float data[]; };\n"
              "#define SQ(x) ((x) * (x))\n#define IDX gl_GlobalInvocationID.x\n"
              "#define TWICE(x) x x\n"
              "void main() { TWICE(data[IDX] = SQ(SQ(data[IDX]));) }\n")
    report = validate({**OP, "shader_code": source, "workgroup_sizes": [4, 1, 1]})
    assert "VKS309" not in report.codes and "VKS417" in report.codes  # (compiled, reflected)


def test_the_time_limits_are_those_of_a_tool_that_must_finish():
    assert 5 <= Options().compile_timeout <= 10
    web = web_options(Options(), None, Limits())
    assert web.compile_timeout < Options().compile_timeout
