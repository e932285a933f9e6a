"""A pytest-lsp client for `tosa-vkshader lsp` tests: the server runs as a subprocess
over stdio, and every wait is bounded, so a server that hangs fails the test."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any, TypeVar

    T = TypeVar("T")

# Seconds any one answer may take. A check without a shader takes milliseconds; a shader
# compiles in well under a second on lavapipe's machine: ten times that is a hang.
TIMEOUT = 15.0
SERVER = [sys.executable, "-m", "tosa_vkshader", "lsp"]


class RecordingClient(LanguageClient):
    """A test client that keeps every publishDiagnostics (uri, version, diagnostics) in
    order, not only the newest per document."""

    published: list[types.PublishDiagnosticsParams]


def _publish(client: RecordingClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append(params)


def recording_client() -> RecordingClient:
    client = RecordingClient(converter_factory=default_converter)
    client.published = []
    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES,
                                   types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _publish})
    return client


CONFIG = ClientServerConfig(server_command=SERVER, client_factory=recording_client)


async def within(awaitable: Awaitable[T], seconds: float = TIMEOUT) -> T:
    return await asyncio.wait_for(awaitable, seconds)


async def until(condition: Callable[[], T], seconds: float = TIMEOUT) -> T:
    """The first true value of ``condition()``, asked every 10 ms."""
    async def poll() -> T:
        while not (found := condition()):
            await asyncio.sleep(0.01)
        return found
    return await within(poll(), seconds)


def uri(path: Path) -> str:
    return path.resolve().as_uri()


async def initialize(client: LanguageClient, root: Path, *,
                     capabilities: types.ClientCapabilities | None = None,
                     **options: Any) -> types.InitializeResult:
    """The handshake, with ``options`` as initializationOptions (debounce, unsafeFixes,
    progressDelay, diagnosticMode, configuration)."""
    params = types.InitializeParams(
        capabilities=capabilities or types.ClientCapabilities(),
        root_uri=uri(root), workspace_folders=[types.WorkspaceFolder(uri(root), root.name)],
        initialization_options=options or None)
    return await within(client.initialize_session(params))


def open_document(client: LanguageClient, path: Path, text: str | None = None,
                  language: str = "json", version: int = 1) -> str:
    document = uri(path)
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        document, language, version, path.read_text() if text is None else text)))
    return document


def change_document(client: LanguageClient, document: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version, document),
        [types.TextDocumentContentChangeWholeDocument(text)]))


async def diagnostics(client: RecordingClient, document: str, version: int | None = None,
                      ) -> list[types.Diagnostic]:
    """The diagnostics published for the document (for that version), once they are."""
    def found() -> types.PublishDiagnosticsParams | None:
        for params in reversed(client.published):
            if params.uri == document and (version is None or params.version == version):
                return params
        return None
    return list((await until(found)).diagnostics)


def spans(found: list[types.Diagnostic]) -> list[tuple[str, int, int, int, int]]:
    """(code, start line, start character, end line, end character), 0-based."""
    return sorted((str(d.code), d.range.start.line, d.range.start.character,
                   d.range.end.line, d.range.end.character) for d in found)


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """The text after the edits (non-overlapping, in UTF-16 positions as the server was
    told by default)."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        before = sum(len(line) + 1 for line in lines[:position.line])
        line = lines[position.line] if position.line < len(lines) else ""
        units = characters = 0
        while characters < len(line) and units < position.character:
            units += 2 if ord(line[characters]) > 0xFFFF else 1
            characters += 1
        return before + characters

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                       reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text
