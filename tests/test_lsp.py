"""`tosa-vkshader lsp` end to end: the server as a subprocess over stdio, driven by
pytest-lsp's client, on files a user could have written (the repository's fixtures).
Every wait is bounded (lsp_helpers.TIMEOUT): a server that hangs fails the test."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import (
    CONFIG,
    RecordingClient,
    apply_edits,
    change_document,
    diagnostics,
    initialize,
    open_document,
    spans,
    until,
    uri,
    within,
)
from lsprotocol import types

from conftest import FIXTURES

pytestmark = pytest.mark.asyncio

FIX_ALL_KIND = "source.fixAll.tosa-vkshader"
LEADING_ZERO = FIXTURES / "invalid" / "leading-zero-index.json"
WRONG_BINDING = FIXTURES / "glsl" / "invalid" / "glsl-wrong-binding.json"


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: RecordingClient):
    yield
    await within(lsp_client.shutdown_session())


def _expected(folder: Path, name: str) -> list[tuple[str, int, int]]:
    """(code, 0-based line, 0-based character) from a fixture folder's expected.json."""
    found = []
    for item in json.loads((folder / "expected.json").read_text())[name]:
        code, _, place = item.partition("@")
        line, column = place.split(":")
        found.append((code, int(line) - 1, int(column) - 1))
    return sorted(found)


def _opened(client: RecordingClient, folder: Path, fixture: Path = LEADING_ZERO,
            name: str = "op.json", language: str = "json") -> tuple[Path, str]:
    """A copy of a fixture in the workspace, opened in the editor: (path, uri)."""
    path = folder / name
    shutil.copy(fixture, path)
    return path, open_document(client, path, language=language)


def _sidecar_pair(folder: Path) -> tuple[Path, Path]:
    """scale.comp and its sidecar scale.json, made from the GLSL fixture whose output is
    declared at binding 1 while the shader writes binding 2."""
    attributes = json.loads(WRONG_BINDING.read_text())
    shader = folder / "scale.comp"
    shader.write_text(attributes.pop("shader_code"))
    del attributes["shader_language"]
    sidecar = folder / "scale.json"
    sidecar.write_text(json.dumps(attributes, indent=2) + "\n")
    return shader, sidecar


async def test_json_diagnostics_at_their_range_then_cleared_by_the_fix(
        client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    op, document = _opened(client, tmp_path)
    found = await diagnostics(client, document, 1)
    assert spans(found) == [("VKS111", 3, 2, 3, 20)]  # the key `"input_00_binding"`
    assert found[0].severity is types.DiagnosticSeverity.Error
    assert found[0].source == "tosa-vkshader"
    assert "input_00_binding" in found[0].message
    assert "help: did you mean `input_0_binding`?" in found[0].message

    change_document(client, document, op.read_text().replace("input_00", "input_0"), 2)
    assert await diagnostics(client, document, 2) == []


async def test_mlir_diagnostics_inside_the_escaped_attribute_string(
        client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    model, document = _opened(client, tmp_path, FIXTURES / "models" / "pretty.mlir",
                              "pretty.mlir", "mlir")
    found = await diagnostics(client, document, 1)
    assert sorted((code, line, start) for code, line, start, _, _ in spans(found)) \
        == _expected(FIXTURES / "models", "pretty.mlir")
    leading_zero = next(d for d in found if d.code == "VKS111")
    line = model.read_text().split("\n")[leading_zero.range.start.line]
    underlined = line[leading_zero.range.start.character:leading_zero.range.end.character]
    assert underlined == '\\"input_00_binding\\"'  # the key as escaped in the model


async def test_columns_in_utf16_by_default_and_in_the_encoding_the_client_offers(
        client: RecordingClient, tmp_path: Path):
    # U+1F600 is two UTF-16 code units and one code point, before the key on its line.
    text = '{"note": "\U0001F600", "input_00_binding": 0}'
    op = tmp_path / "op.json"
    op.write_text(text)
    await initialize(client, tmp_path, capabilities=types.ClientCapabilities(
        general=types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind.Utf32])))
    found = await diagnostics(client, open_document(client, op), 1)
    key = text.index('"input_00_binding"')
    assert ("VKS111", 0, key, 0, key + 18) in spans(found)


async def test_columns_in_utf16(client: RecordingClient, tmp_path: Path):
    text = '{"note": "\U0001F600", "input_00_binding": 0}'
    op = tmp_path / "op.json"
    op.write_text(text)
    await initialize(client, tmp_path)
    found = await diagnostics(client, open_document(client, op), 1)
    key = text.index('"input_00_binding"') + 1  # one more code unit for the emoji
    assert ("VKS111", 0, key, 0, key + 18) in spans(found)


async def test_files_that_are_not_ops_get_nothing(client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    package = tmp_path / "package.json"
    package.write_text('{"name": "app", "version": "1.0.0", "scripts": {"test": "jest"}}')
    tsconfig = tmp_path / "tsconfig.json"
    tsconfig.write_text('{\n  // comments are allowed here\n  "compilerOptions": {}\n}\n')
    model = tmp_path / "plain.mlir"
    model.write_text("module {\n  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                     "    return %a : tensor<4xf32>\n  }\n}\n")
    for path, language in ((package, "json"), (tsconfig, "jsonc"), (model, "mlir")):
        assert await diagnostics(client, open_document(client, path, language=language),
                                 1) == []


async def test_a_broken_document_gets_one_diagnostic_and_the_server_stays_up(
        client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    broken = tmp_path / "broken.json"
    broken.write_text('{"entry_point": "main", "workgroup_sizes": [1, 1, 1],')
    found = await diagnostics(client, open_document(client, broken), 1)
    assert [d.code for d in found] == ["VKS100"]
    garbage = "\x00\x01\ufffd{{{\"input_0_binding\": [[[[" + "\U0001F600" * 1000 + "\\u12"
    # As JSON: one error where parsing stopped. As a model: no op of ours in it, nothing.
    for name, language, codes in (("garbage.json", "json", ["VKS100"]),
                                  ("garbage.mlir", "mlir", [])):
        path = tmp_path / name
        path.write_text(garbage)
        garbled = await diagnostics(client, open_document(client, path, language=language), 1)
        assert [d.code for d in garbled] == codes
    # Still answering: a hover (the rule of the syntax error), and a fixed document.
    hover = await within(client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(broken)), found[0].range.start)))
    assert hover is not None and "VKS100" in hover.contents.value
    change_document(client, uri(broken), broken.read_text()[:-1] + "}", 2)
    assert await diagnostics(client, uri(broken), 2) == []


async def test_hover_shows_the_rule_and_what_the_key_means(
        client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    op, document = _opened(client, tmp_path)
    await diagnostics(client, document, 1)

    async def hover(line: int, character: int) -> str:
        found = await within(client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(document), types.Position(line, character))))
        assert found is not None and isinstance(found.contents, types.MarkupContent)
        return found.contents.value

    on_diagnostic = await hover(3, 8)
    assert "**VKS111 leading-zero-index**" in on_diagnostic
    assert "Did you mean `input_0_binding`?" in on_diagnostic
    assert "tosa-vkshader rule VKS111" in on_diagnostic
    on_format = await hover(6, 30)  # the value of input_0_vkformat
    assert "Vulkan format" in on_format and "VK_FORMAT_*" in on_format
    assert "`VK_FORMAT_R32_SFLOAT`: 4 bytes per texel block" in on_format
    on_type = await hover(5, 5)  # the key input_0_vkdescriptortype
    assert "`VK_DESCRIPTOR_TYPE_TENSOR_ARM`" in on_type
    assert "`VK_DESCRIPTOR_TYPE_STORAGE_BUFFER` is a buffer resource" in on_type


async def test_hover_on_a_key_inside_an_mlir_string(client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    model, document = _opened(client, tmp_path, FIXTURES / "models" / "pretty.mlir",
                              "pretty.mlir", "mlir")
    lines = model.read_text().split("\n")
    line = next(k for k, text in enumerate(lines) if "mask_i8" in text)
    character = lines[line].index('input_0_vkformat\\"')
    found = await within(client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(document), types.Position(line, character + 3))))
    assert found is not None and "`VK_FORMAT_R8_UINT`: 1 bytes" in found.contents.value


async def test_completion_of_keys_a_resource_lacks_and_of_vulkan_names(
        client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    start = ('{\n  "entry_point": "main",\n  "workgroup_sizes": [1, 1, 1],\n'
             '  "input_0_binding": 0,\n  "input_0_descriptorset": 0,\n  "')
    op = tmp_path / "op.json"
    document = open_document(client, op, start)

    async def labels(line: int, character: int) -> list[types.CompletionItem]:
        found = await within(client.text_document_completion_async(types.CompletionParams(
            types.TextDocumentIdentifier(document), types.Position(line, character))))
        assert isinstance(found, types.CompletionList)
        return found.items

    keys = [item.label for item in await labels(5, 3)]
    assert keys[:2] == ["input_0_vkdescriptortype", "input_0_vkformat"]  # what it lacks
    assert {"input_1_binding", "output_0_binding", "shader_code"} <= set(keys)
    assert not {"input_0_binding", "entry_point"} & set(keys)

    change_document(client, document, start + 'input_0_vkformat": "VK_FORMAT_R32_SF', 2)
    items = await labels(5, 3 + len('input_0_vkformat": "VK_FORMAT_R32_SF'))
    item = next(i for i in items if i.label == "VK_FORMAT_R32_SFLOAT")
    assert isinstance(item.text_edit, types.TextEdit)
    assert item.text_edit.range.start == types.Position(5, 3 + len('input_0_vkformat": "'))
    assert len(items) > 200  # every canonical format of the registry
    change_document(client, document, start + 'input_0_vkdescriptortype": "VK_DES', 3)
    items = await labels(5, 3 + len('input_0_vkdescriptortype": "VK_DES'))
    assert "VK_DESCRIPTOR_TYPE_TENSOR_ARM" in [i.label for i in items]


async def test_definition_goes_to_the_shader_declaration_of_the_binding(
        client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    op, document = _opened(client, tmp_path, WRONG_BINDING)
    lines = op.read_text().split("\n")
    key_line = next(k for k, text in enumerate(lines) if '"input_0_binding"' in text)
    found = await within(client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(document), types.Position(key_line, 5))))
    assert isinstance(found, types.Location) and found.uri == document
    at = lines[found.range.start.line][found.range.start.character:]
    assert at.startswith("layout(set = 0, binding = 0) readonly buffer Input")

    shader, sidecar = _sidecar_pair(tmp_path)
    document = open_document(client, sidecar)
    lines = sidecar.read_text().split("\n")
    key_line = next(k for k, text in enumerate(lines) if '"input_0_binding"' in text)
    found = await within(client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(document), types.Position(key_line, 5))))
    assert isinstance(found, types.Location) and found.uri == uri(shader)
    assert found.range.start == types.Position(2, 0)  # line 3 of scale.comp
    # output_0 is at binding 1, where the shader declares nothing: nowhere to go.
    key_line = next(k for k, text in enumerate(lines) if '"output_0_binding"' in text)
    assert await within(client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(document), types.Position(key_line, 5)))) is None


async def test_a_shader_file_shows_what_its_sidecar_op_finds(
        client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    shader, sidecar = _sidecar_pair(tmp_path)
    text = shader.read_text()
    document = open_document(client, shader, language="glsl")
    found = await diagnostics(client, document, 1)
    # Both cross-check findings at the declaration of `dst` (binding 2), line 4.
    at_dst = [d for d in found if d.code in ("VKS412", "VKS413")]
    assert sorted((d.code, d.range.start.line, d.range.start.character) for d in at_dst) \
        == [("VKS412", 3, 0), ("VKS413", 3, 0)]
    related = at_dst[0].related_information or []
    assert [r.location.uri for r in related] == [uri(sidecar)]
    assert not [d for d in found if str(d.code).startswith(("VKS1", "VKS2"))]

    change_document(client, document, text.replace("binding = 2", "binding = 1"), 2)
    assert not {"VKS412", "VKS413"} & {d.code for d in await diagnostics(client, document, 2)}
    broken = text.replace("uint i = gl_GlobalInvocationID.x;", "uint i = oops;")
    change_document(client, document, broken, 3)
    found = await diagnostics(client, document, 3)
    line = next(k for k, row in enumerate(broken.split("\n")) if "oops" in row)
    errors = [d for d in found if d.severity is types.DiagnosticSeverity.Error]
    assert {(d.code, d.range.start.line) for d in errors} == {("VKS300", line)}
    assert any("oops" in d.message for d in errors)


async def test_a_shader_file_an_op_of_the_workspace_embeds(
        client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    ops = tmp_path / "ops"
    ops.mkdir()
    shutil.copy(WRONG_BINDING, ops / "double.json")
    shader = tmp_path / "shaders" / "double.comp"
    shader.parent.mkdir()
    shader.write_text(json.loads(WRONG_BINDING.read_text())["shader_code"])
    found = await diagnostics(client, open_document(client, shader, language="glsl"), 1)
    assert ("VKS412", 3) in [(d.code, d.range.start.line) for d in found]
    # A shader no op carries gets nothing.
    alone = tmp_path / "shaders" / "alone.comp"
    alone.write_text("#version 460\nvoid main() { oops }\n")
    assert await diagnostics(client, open_document(client, alone, language="glsl"), 1) == []


async def test_a_long_check_shows_progress(client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path, progressDelay=0, capabilities=types.ClientCapabilities(
        window=types.WindowClientCapabilities(work_done_progress=True)))
    await diagnostics(client, _opened(client, tmp_path, WRONG_BINDING)[1], 1)
    kinds = [[report.kind for report in reports]
             for reports in client.progress_reports.values()]
    assert kinds == [["begin", "end"]]


async def test_a_stale_result_is_dropped_for_the_newer_version(
        client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    op, document = _opened(client, tmp_path, WRONG_BINDING)
    text = op.read_text()
    await diagnostics(client, document, 1)
    # Two versions at once: the first (a compile error) is superseded before it is
    # published, whether or not its compile had started.
    change_document(client, document, text.replace("src.data[i] * 2.0", "src.data[i] * two"), 2)
    change_document(client, document, text.replace("binding = 2", "binding = 1"), 3)
    newest = await diagnostics(client, document, 3)
    assert not {"VKS300", "VKS412"} & {d.code for d in newest}
    assert [p.version for p in client.published if p.uri == document] == [1, 3]


async def test_a_compile_never_holds_up_other_documents(
        client: RecordingClient, tmp_path: Path):
    # A shader whose macros expand to a sum of 2**25 terms: under the limit refused
    # before any compile (VKS309), beyond what compiles in the configured 2 s.
    (tmp_path / "pyproject.toml").write_text("[tool.tosa-vkshader]\ncompile-timeout = 2\n")
    await initialize(client, tmp_path)
    macros = "".join(f"#define M{k + 1} M{k} + M{k}\n" for k in range(25))
    slow = json.loads(WRONG_BINDING.read_text())
    slow["shader_code"] = slow["shader_code"].replace(
        "void main() {", "#define M0 x\n" + macros + "void main() {\n    float x = 0.0;"
        "\n    float y = M25;")
    heavy = tmp_path / "heavy.json"
    heavy.write_text(json.dumps(slow, indent=2))
    heavy_document = open_document(client, heavy)
    light_document = _opened(client, tmp_path, LEADING_ZERO, "light.json")[1]
    assert [d.code for d in await diagnostics(client, light_document, 1)] == ["VKS111"]
    hover = await within(client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(light_document), types.Position(3, 5))), 1.5)
    assert hover is not None
    assert not [p for p in client.published if p.uri == heavy_document]  # still compiling
    # ... and the compile is stopped at its time limit.
    assert "VKS912" in [d.code for d in await diagnostics(client, heavy_document, 1)]


async def test_pull_diagnostics_for_a_client_that_asks(
        client: RecordingClient, tmp_path: Path):
    result = await initialize(client, tmp_path, capabilities=types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities())))
    assert result.capabilities.diagnostic_provider is not None
    op, document = _opened(client, tmp_path)
    report = await within(client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(types.TextDocumentIdentifier(document))))
    assert report.kind == "full"
    assert spans(list(report.items)) == [("VKS111", 3, 2, 3, 20)]
    assert client.published == []  # pulled, not pushed


async def test_push_without_pull_capability_has_no_diagnostic_provider(
        client: RecordingClient, tmp_path: Path):
    result = await initialize(client, tmp_path)
    assert result.capabilities.diagnostic_provider is None


async def test_each_file_gets_the_configuration_nearest_to_it(
        client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    quiet, plain, broken = (tmp_path / name for name in ("quiet", "plain", "broken"))
    for folder in (quiet, plain, broken):
        folder.mkdir()
        shutil.copy(LEADING_ZERO, folder / "op.json")
    (quiet / "pyproject.toml").write_text('[tool.tosa-vkshader]\nignore = ["VKS111"]\n')
    config = broken / "pyproject.toml"
    config.write_text('[project]\nname = "x"\n\n[tool.tosa-vkshader]\nselekt = ["VKS1"]\n')
    assert await diagnostics(client, open_document(client, quiet / "op.json"), 1) == []
    assert [d.code for d in await diagnostics(
        client, open_document(client, plain / "op.json"), 1)] == ["VKS111"]
    found = await diagnostics(client, open_document(client, broken / "op.json"), 1)
    assert [d.code for d in found] == ["VKS901"]
    assert "selekt" in found[0].message
    place = (found[0].related_information or [])[0].location
    assert place.uri == uri(config) and place.range.start.line == 4

    config.write_text('[tool.tosa-vkshader]\nselect = ["VKS1"]\n')
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(uri(config), types.FileChangeType.Changed)]))
    await until(lambda: [d.code for d in client.diagnostics[uri(broken / "op.json")]]
                == ["VKS111"])


UNSAFE = """{
  "entry_point": "main",
  "workgroup_sizes": [8, 8, 1],
  "input_00_binding": 0,
  "input_0_descriptorset": 0,
  "input_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
  "input_0_vkformat": "VK_FORMAT_R32_SFLAOT",
  "output_0_binding": 1,
  "output_0_descriptorset": 0,
  "output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
  "output_0_vkformat": "VK_FORMAT_R32_SFLOAT"
}
"""


async def _actions(client: RecordingClient, document: str, where: types.Range,
                   found: list[types.Diagnostic], only: list[str] | None = None,
                   ) -> list[types.CodeAction]:
    answer = await within(client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(document), where,
        types.CodeActionContext(found, only=only))))
    return [a for a in answer or [] if isinstance(a, types.CodeAction)]


def _edits(action: types.CodeAction, document: str) -> list[types.TextEdit]:
    assert action.edit is not None
    if action.edit.document_changes:
        return [edit for change in action.edit.document_changes
                if isinstance(change, types.TextDocumentEdit)
                and change.text_document.uri == document
                for edit in change.edits if isinstance(edit, types.TextEdit)]
    return list((action.edit.changes or {})[document])


async def test_a_quick_fix_applied_checks_clean(client: RecordingClient, tmp_path: Path):
    # (a client that takes versioned edits: they name the version they were made for)
    await initialize(client, tmp_path, capabilities=types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True))))
    op, document = _opened(client, tmp_path)
    found = await diagnostics(client, document, 1)
    actions = await _actions(client, document, found[0].range, found)
    assert [(a.title, a.kind, a.is_preferred) for a in actions
            if a.kind == types.CodeActionKind.QuickFix] == [
        ("renamed `input_00_binding` to `input_0_binding` (VKS111)",
         types.CodeActionKind.QuickFix, True)]
    assert actions[0].edit is not None and actions[0].edit.document_changes
    versioned = actions[0].edit.document_changes[0]
    assert isinstance(versioned, types.TextDocumentEdit) and versioned.text_document.version == 1
    fixed = apply_edits(op.read_text(), _edits(actions[0], document))
    assert '"input_0_binding": 0' in fixed
    change_document(client, document, fixed, 2)
    assert await diagnostics(client, document, 2) == []


async def test_unsafe_fixes_only_when_the_setting_asks(client: RecordingClient,
                                                        tmp_path: Path):
    await initialize(client, tmp_path)
    op = tmp_path / "op.json"
    op.write_text(UNSAFE)
    document = open_document(client, op)
    found = await diagnostics(client, document, 1)
    assert sorted(d.code for d in found) == ["VKS111", "VKS226"]
    guess = next(d for d in found if d.code == "VKS226")
    assert [a for a in await _actions(client, document, guess.range, [guess])
            if a.kind == types.CodeActionKind.QuickFix] == []
    # Fix all takes the safe fix only: the guessed format is still reported.
    fix_all = await _actions(client, document, guess.range, [], ["source.fixAll"])
    assert [a.kind for a in fix_all] == ["source.fixAll.tosa-vkshader"]
    change_document(client, document, apply_edits(UNSAFE, _edits(fix_all[0], document)), 2)
    assert [d.code for d in await diagnostics(client, document, 2)] == ["VKS226"]

    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        {"tosa-vkshader": {"unsafeFixes": True}}))
    change_document(client, document, UNSAFE, 3)
    found = await diagnostics(client, document, 3)
    guess = next(d for d in found if d.code == "VKS226")
    offered = [a for a in await _actions(client, document, guess.range, [guess])
               if a.kind == types.CodeActionKind.QuickFix]
    assert [a.title for a in offered] == [
        "`input_0_vkformat`: 'VK_FORMAT_R32_SFLAOT' replaced by VK_FORMAT_R32_SFLOAT "
        "(VKS226, unsafe)"]
    fix_all = await _actions(client, document, guess.range, [], [FIX_ALL_KIND])
    change_document(client, document, apply_edits(UNSAFE, _edits(fix_all[0], document)), 4)
    assert await diagnostics(client, document, 4) == []


async def test_fix_all_inside_an_mlir_string(client: RecordingClient, tmp_path: Path):
    await initialize(client, tmp_path)
    model, document = _opened(client, tmp_path, FIXTURES / "models" / "pretty.mlir",
                              "pretty.mlir", "mlir")
    before = {d.code for d in await diagnostics(client, document, 1)}
    fix_all = await _actions(client, document, types.Range(types.Position(0, 0),
                                                           types.Position(0, 0)),
                             [], ["source"])
    assert [a.kind for a in fix_all] == ["source.fixAll.tosa-vkshader"]
    change_document(client, document,
                    apply_edits(model.read_text(), _edits(fix_all[0], document)), 2)
    after = {d.code for d in await diagnostics(client, document, 2)}
    assert "VKS111" in before and "VKS111" not in after
    assert after  # what has no mechanical repair is still there
