"""The second hour of a newcomer (issue #23, item 5): what they tripped on, each tried as
they tried it, through the command line, the web and the README."""

from __future__ import annotations

import io
import json
import re

from web_helpers import module_server

from tosa_vkshader.cli import main
from tosa_vkshader.commands.check import ProgressLine

from conftest import FIXTURES, ROOT

server, client = module_server("newcomer")

SHADER = """#version 460
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { float scale; } params;
layout(set = 0, binding = 0) readonly buffer In { float a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float b[]; };
void main() {
  b[gl_GlobalInvocationID.x] = a[gl_GlobalInvocationID.x] * params.scale;
}
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_new_places_its_findings_in_the_users_own_files(tmp_path, capsys):
    shader = tmp_path / "shader.comp"
    shader.write_text(SHADER)
    out = tmp_path / "op.json"
    code, _, err = run(capsys, "new", str(shader), "-o", str(out))
    assert code == 0 and "<input>" not in err
    # About the shader: at its line in the shader file, with that line shown.
    assert f"{shader}:2:1: info[VKS430]" in err
    assert "     2 | layout(local_size_x = 64) in;" in err
    # About a key of the op: at that key in the file new wrote.
    line = next(k for k, text in enumerate(out.read_text().splitlines(), 1)
                if '"push_constants"' in text)
    assert f"{out}:{line}:21: info[VKS250]" in err
    # Printed to stdout, a finding about a key is at the shader file.
    code, _, err = run(capsys, "new", str(shader))
    assert code == 0 and "<input>" not in err
    assert f"{shader}: info[VKS250]" in err


def test_emit_places_its_findings_in_the_attribute_file(tmp_path, capsys):
    shader = tmp_path / "add.comp"
    shader.write_text(SHADER)
    attrs = tmp_path / "add.json"
    assert main(["new", str(shader), "-o", str(attrs)]) == 0
    capsys.readouterr()
    code, _, err = run(capsys, "emit", "mlir", str(attrs), "--operands", "tensor<1x64xf32>",
                       "--results", "tensor<1x64xi32>", "-o", str(tmp_path / "add.mlir"))
    assert code == 1
    line = next(k for k, text in enumerate(attrs.read_text().splitlines(), 1)
                if '"output_0_vkformat"' in text)
    assert f"{attrs}:{line}:24: error[VKS514]" in err
    assert not re.search(rf"{re.escape(str(attrs))}: (error|warning|info)\[", err)


def test_the_lowest_severity_has_one_name_in_our_outputs(tmp_path, capsys):
    op = tmp_path / "op.json"
    op.write_text(json.dumps({"entry_point": "main", "workgroup_sizes": [8, 8, 1],
                              "producer": "me"}))
    code, out, _ = run(capsys, "check", str(op))
    assert code == 0
    assert "info[VKS115]" in out and "0 error(s), 0 warning(s), 1 info(s)" in out
    assert "note" not in out
    code, out, _ = run(capsys, "check", str(op), "--format", "json")
    document = json.loads(out)
    assert document["summary"]["infos"] == 1
    assert document["files"][0]["diagnostics"][0]["severity"] == "info"
    # SARIF and GitHub keep their formats' own words.
    _, out, _ = run(capsys, "check", str(op), "--format", "sarif")
    assert json.loads(out)["runs"][0]["results"][0]["level"] == "note"
    _, out, _ = run(capsys, "check", str(op), "--format", "github")
    assert out.startswith("::notice ")


def test_select_suggests_only_close_codes(capsys):
    code, _, err = run(capsys, "check", "--select", "VKS99999", str(FIXTURES / "valid"))
    assert code == 2 and "matches no rule" in err and "did you mean" not in err
    code, _, err = run(capsys, "check", "--select", "VKS2O3", str(FIXTURES / "valid"))
    assert code == 2 and "did you mean `VKS203`?" in err


def test_a_gap_in_the_inputs_says_what_is_missing_and_how_to_renumber(tmp_path, capsys):
    op = {"entry_point": "main", "workgroup_sizes": [1, 1, 1], "input_1_binding": 0,
          "input_1_descriptorset": 0, "input_1_vkformat": "VK_FORMAT_R32_SFLOAT",
          "input_1_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}
    path = tmp_path / "gap.json"
    path.write_text(json.dumps(op))
    _, out, _ = run(capsys, "check", str(path))
    assert "input indices are [1]: input_0 is missing (input_i describes the op's operand " \
        "i, so they run 0, 1, 2, ... without gaps)" in out
    assert "help: rename the input_1_* keys to input_0_* (the op's first operand)" in out
    assert "0..0" not in out


def test_a_capability_the_device_lacks_points_at_the_line_that_needs_it(capsys):
    code, out, _ = run(capsys, "check", str(FIXTURES / "devices" / "float16.json"),
                       "--target-device", "baseline")
    assert code == 1
    [finding] = [line for line in out.splitlines() if "error[VKS700]" in line]
    assert "OpCapability Float16" in finding
    assert "float16_t h = float16_t(src.data[i]);   (line 8 of `shader_code`)" in out


def test_a_missing_compiler_points_at_the_shader_not_the_whole_string(tmp_path, capsys):
    config = tmp_path / "pyproject.toml"
    config.write_text(f'[tool.tosa-vkshader]\nglslc = "{tmp_path / "no-glslc"}"\n')
    code, out, _ = run(capsys, "check", str(FIXTURES / "glsl" / "valid" / "buffer-scale.json"),
                       "--config", str(config))
    assert code == 2 and "error[VKS910]" in out
    assert "#version 460   (line 1 of `shader_code`)" in out
    assert "^^^^^^^^^^" not in out  # not the whole shader_code underlined


def test_compile_shows_the_spirv_as_assembly(tmp_path):
    op = FIXTURES / "glsl" / "valid" / "buffer-scale.json"
    binary, asm = tmp_path / "op.spv", tmp_path / "op.spvasm"
    assert main(["compile", str(op), "-o", str(binary)]) == 0
    assert main(["compile", str(op), "-S", "-o", str(asm)]) == 0
    text = asm.read_text()
    assert text.startswith("; SPIR-V\n") and 'OpEntryPoint GLCompute %main "main"' in text
    assert re.search(r"OpExecutionMode(Id)? %main LocalSize(Id)? ", text)
    # The same module: its id bound, as the binary's header says it.
    bound = int.from_bytes(binary.read_bytes()[12:16], "little")
    assert f"; Bound: {bound}\n" in text
    assert main(["compile", str(op), "--format", "asm", "-o", str(asm)]) == 0
    assert asm.read_text() == text


def test_a_long_check_shows_progress_on_a_terminal_and_nothing_otherwise(
        tmp_path, capsys, monkeypatch):
    for k in range(150):
        (tmp_path / f"op{k}.json").write_text(json.dumps(
            {"entry_point": "main", "workgroup_sizes": [8, 8, 1], f"note_{k}": 1}))

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(ProgressLine, "DELAY", 0.0)  # (a long check, made short)
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["check", str(tmp_path), "-j", "1", "--format", "json"]) == 0
    shown = terminal.getvalue()
    assert "checked 64/150 files" in shown and "checked 128/150 files" in shown
    assert shown.endswith("\r\x1b[K")  # the line is cleared before the report
    monkeypatch.undo()
    capsys.readouterr()
    assert main(["check", str(tmp_path), "-j", "1", "--format", "json"]) == 0
    assert capsys.readouterr().err == ""  # not a terminal: no progress line


def test_problems_point_at_the_servers_own_docs(client):
    problem = client.post("/v1/check", content=b"{not json",
                          headers={"content-type": "application/json"}).json()
    assert problem["type"] == "/docs/problems#invalid-request"
    page = client.get("/docs/problems")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'id="invalid-request"' in page.text and "github.com" not in page.text


def test_the_readme_says_what_scripts_test_installs_and_how_long_it_takes():
    head = "\n".join((ROOT / "README.md").read_text().splitlines()[:20])
    assert "apt-get" in head and "chromium" in head
    assert "TOSA_VKSHADER_WITH_BROWSER=0" in head
    assert re.search(r"about \d+ min", head)


def test_operand_and_result_types_given_one_flag_each_add_up(tmp_path, capsys):
    """`--operands A --operands B` is `--operands A,B` in `new` and `emit` (a repeated
    flag once silently kept only its last value)."""
    shader = tmp_path / "add.comp"
    shader.write_text("""#version 460
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
void main() { uint i = gl_GlobalInvocationID.x; c[i] = a[i] + b[i]; }
""")
    op = tmp_path / "add.json"
    t = "tensor<256xf32>"
    code, _, err = run(capsys, "new", str(shader), "--operands", t, "--operands", t,
                       "--results", t, "-o", str(op))
    assert code == 0, err
    assert json.loads(op.read_text())["workgroup_sizes"] == [4, 1, 1]
    code, out, err = run(capsys, "emit", "mlir", str(op), "--operands", t, "--operands", t,
                         "--results", t)
    assert code == 0, err
    assert f"({t}, {t}) -> {t}" in out
