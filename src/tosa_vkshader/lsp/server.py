"""The language server: pygls over stdio, the checker behind it.

Every check runs on a worker thread, never on the event loop, so typing, hover and
completion are answered while a shader compiles. There are two workers: one for
documents without shader code (a check takes milliseconds), one for those with it
(compiles and spirv-val), so a compile never holds up the check of another document.
Each check is of one version of a document; a result that arrives when the editor has
sent a newer version is dropped (its places are out of date), and a version superseded
while it waited is never checked. A check that takes longer than ``progressDelay``
shows progress (``$/progress``) where the client accepts it.

Diagnostics are published (``textDocument/publishDiagnostics``) after each check; a
client that asks for them itself (pull diagnostics, ``textDocument/diagnostic``) gets them
that way instead, and none are pushed to it.
"""

from __future__ import annotations

import asyncio
import os
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from ..config_file import ConfigResolver
from ..version import __version__
from .checking import Checked, check_op_document, check_shader_document
from .documents import Kind, Snapshot, kind_of, path_for
from .shaders import find_users, sidecar_of

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    from ..config import Options
    from ..sources.base import SourceFile
    from .shaders import ShaderUser

    T = TypeVar("T")

NAME = "tosa-vkshader"


@dataclass(slots=True)
class Settings:
    """What a client may set (``initializationOptions``, or the ``tosa-vkshader`` section
    of ``workspace/didChangeConfiguration``), by their camel-case names."""

    # Offer fixes whose applicability is unsafe too (they may change what the op means).
    unsafe_fixes: bool = False
    # Seconds a change waits before its check starts (later changes restart the wait).
    debounce: float = 0.01
    # Seconds a check runs before the client is shown its progress.
    progress_delay: float = 0.5
    # "auto": pushed, or pulled where the client pulls; "push": always pushed.
    diagnostic_mode: str = "auto"
    # A pyproject.toml whose [tool.tosa-vkshader] applies to every file (as --config).
    configuration: str | None = None

    def update(self, values: Any) -> None:
        """Take the settings the client gives (unknown names and unusable values are
        left as they were)."""
        if isinstance(values, dict) and isinstance(values.get(NAME), dict):
            values = values[NAME]
        if not isinstance(values, dict):
            return
        if isinstance(values.get("unsafeFixes"), bool):
            self.unsafe_fixes = values["unsafeFixes"]
        for name, field_name in (("debounce", "debounce"),
                                 ("progressDelay", "progress_delay")):
            value = values.get(name)
            if isinstance(value, (int, float)) and not isinstance(value, bool) \
                    and 0 <= value <= 60:
                setattr(self, field_name, float(value))
        if values.get("diagnosticMode") in ("auto", "push"):
            self.diagnostic_mode = values["diagnosticMode"]
        if isinstance(values.get("configuration"), str) or values.get("configuration", 0) \
                is None:
            self.configuration = values["configuration"] or None


@dataclass(slots=True)
class DocumentState:
    """The server's knowledge of one open document."""

    path: str
    kind: Kind
    version: int | None = None  # the newest version the editor sent
    checked: Checked | None = None  # the result of the newest check that finished in time
    pending: asyncio.Task[Checked | None] | None = None  # the check of the newest version
    users: list[ShaderUser] | None = None  # a shader's ops, found when first checked


class Session:
    """The server and its state."""

    def __init__(self) -> None:
        self.server = LanguageServer(NAME, __version__)
        self.settings = Settings()
        self.config = ConfigResolver()
        self.documents: dict[str, DocumentState] = {}
        # The text of every open document by path, for the worker threads (an op file's
        # text for its shader, the sidecar of a shader).
        self.open_texts: dict[str, str] = {}
        self.lint_lane = ThreadPoolExecutor(1, thread_name_prefix="tosa-vkshader-lint")
        self.shader_lane = ThreadPoolExecutor(1, thread_name_prefix="tosa-vkshader-shader")
        self.pull = False
        self.shut_down = False  # the client asked for shutdown (before exit, as it should)
        self._tokens = count(1)
        self._register()

    # -- protocol -----------------------------------------------------------------------
    def _register(self) -> None:
        for method, handler in (
                (types.INITIALIZE, self._initialize),
                (types.INITIALIZED, self._initialized),
                (types.TEXT_DOCUMENT_DID_OPEN, self._changed),
                (types.TEXT_DOCUMENT_DID_CHANGE, self._changed),
                (types.TEXT_DOCUMENT_DID_SAVE, self._saved),
                (types.TEXT_DOCUMENT_DID_CLOSE, self._closed),
                (types.WORKSPACE_DID_CHANGE_CONFIGURATION, self._configured),
                (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, self._files_changed),
                (types.SHUTDOWN, self._shutdown)):
            self.handle(method, handler)

    def handle(self, method: str, handler: Callable[[Any], Any],
               options: Any = None) -> None:
        """Answer ``method`` with ``handler(params)`` (a coroutine function or not).
        (pygls registers functions, not bound methods: each gets one of its own.)"""
        if asyncio.iscoroutinefunction(handler):
            async def answer_later(params: Any) -> Any:
                return await handler(params)
            self.server.feature(method, options)(answer_later)
        else:
            def answer(params: Any) -> Any:
                return handler(params)
            self.server.feature(method, options)(answer)

    def _initialize(self, params: types.InitializeParams) -> None:
        self.settings.update(params.initialization_options)
        self._reset_config()
        capabilities = params.capabilities.text_document
        if capabilities is not None and capabilities.diagnostic is not None \
                and self.settings.diagnostic_mode != "push":
            # (registered here, before the server's capabilities are made from its
            # features: only a client that pulls is told that it may)
            self.pull = True
            self.handle(types.TEXT_DOCUMENT_DIAGNOSTIC, self._pulled, types.DiagnosticOptions(
                inter_file_dependencies=True, workspace_diagnostics=False, identifier=NAME))

    async def _initialized(self, params: types.InitializedParams) -> None:
        watched = self.server.client_capabilities.workspace
        if watched is None or watched.did_change_watched_files is None \
                or not watched.did_change_watched_files.dynamic_registration:
            return  # (pyproject.toml saved in the editor is still seen: _saved)
        watchers = [types.FileSystemWatcher(glob_pattern="**/pyproject.toml"),
                    types.FileSystemWatcher(glob_pattern="**/*.json")]
        await self.server.client_register_capability_async(types.RegistrationParams([
            types.Registration(f"{NAME}/watched", types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                               types.DidChangeWatchedFilesRegistrationOptions(watchers))]))

    def _changed(self, params: types.DidOpenTextDocumentParams
                 | types.DidChangeTextDocumentParams) -> None:
        self.schedule(params.text_document.uri)

    def _saved(self, params: types.DidSaveTextDocumentParams) -> None:
        path = to_fs_path(params.text_document.uri)
        if path is not None:
            self._file_changed(path)
        state = self.documents.get(params.text_document.uri)
        if state is not None and state.kind is Kind.SHADER and not state.users:
            state.users = None  # (no op carried it: it may now have a sidecar or users)
            self.schedule(params.text_document.uri)

    def _closed(self, params: types.DidCloseTextDocumentParams) -> None:
        state = self.documents.pop(params.text_document.uri, None)
        if state is None:
            return
        self.open_texts.pop(state.path, None)
        if not self.pull:
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(params.text_document.uri, []))
        self._recheck_shaders_of(state.path)

    def _configured(self, params: types.DidChangeConfigurationParams) -> None:
        self.settings.update(params.settings)
        self._reset_config()
        self.recheck_all()

    def _files_changed(self, params: types.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            path = to_fs_path(change.uri)
            if path is not None:
                self._file_changed(path)

    def _file_changed(self, path: str) -> None:
        """A file on disk changed: a configuration (every document is checked again), or
        an op file (the shaders it carries are)."""
        if os.path.basename(path) == "pyproject.toml":
            self._reset_config()
            self.recheck_all()
        elif path not in self.open_texts:
            self._recheck_shaders_of(path, refind=True)

    def _shutdown(self, params: None) -> None:
        self.shut_down = True
        for lane in (self.lint_lane, self.shader_lane):
            lane.shutdown(wait=False, cancel_futures=True)

    async def _pulled(self, params: types.DocumentDiagnosticParams
                      ) -> types.FullDocumentDiagnosticReport:
        checked = await self.current(params.text_document.uri)
        return types.FullDocumentDiagnosticReport(checked.published if checked else [])

    # -- checking -----------------------------------------------------------------------
    def _reset_config(self) -> None:
        """Read every configuration afresh (one was edited, or the settings changed)."""
        given = self.settings.configuration
        self.config = ConfigResolver(self._absolute(given) if given else None)
        for state in self.documents.values():
            state.users = None

    def _absolute(self, path: str) -> Path:
        return Path(self.root or os.getcwd(), os.path.expanduser(path))

    @property
    def root(self) -> str | None:
        return self.server.workspace.root_path

    def roots(self) -> list[str]:
        folders = [to_fs_path(f.uri) for f in self.server.workspace.folders.values()]
        found = [f for f in folders if f] or ([self.root] if self.root else [])
        return found

    def text_of(self, path: str) -> str | None:
        """A file's text: the editor's, when it is open there (any thread may ask)."""
        text = self.open_texts.get(path)
        if text is not None:
            return text
        try:
            with open(path, encoding="utf-8", errors="replace") as file:
                return file.read()
        except OSError:
            return None

    def options_for(self, path: str) -> Options:
        return self.config.options_for(path)

    def snapshot(self, uri: str) -> Snapshot | None:
        """The document as the editor has it now; None when it is not one of ours, or
        not open in the editor (only open documents are answered for)."""
        document = self.server.workspace.text_documents.get(unquote(uri))
        if document is None:
            return None
        path = path_for(to_fs_path(uri) if uri.startswith("file:") else None,
                        document.language_id, self.root or os.getcwd())
        kind = kind_of(path) if path is not None else None
        if path is None or kind is None:
            return None
        return Snapshot(uri, path, document.version, document.source, kind,
                        self.server.workspace.position_encoding or "utf-16")

    def schedule(self, uri: str) -> None:
        """Check the newest version of a document (once the changes settle)."""
        snapshot = self.snapshot(uri)
        if snapshot is None:
            return
        state = self.documents.get(uri)
        if state is None or state.path != snapshot.path:
            state = self.documents[uri] = DocumentState(snapshot.path, snapshot.kind)
        state.version = snapshot.version
        self.open_texts[snapshot.path] = snapshot.text
        if state.pending is not None and not state.pending.done():
            state.pending.cancel()  # (only while it waits: a running check is not stopped)
        state.pending = asyncio.ensure_future(self._check(state, snapshot))
        if snapshot.kind is Kind.OPS:
            self._recheck_shaders_of(snapshot.path)

    def recheck_all(self) -> None:
        for uri in list(self.documents):
            self.schedule(uri)

    def _recheck_shaders_of(self, path: str, *, refind: bool = False) -> None:
        """Check again the open shaders that an op of ``path`` carries (or that may now
        have ops, ``refind``)."""
        for uri, state in list(self.documents.items()):
            if state.kind is not Kind.SHADER:
                continue
            if refind and (not state.users or sidecar_of(state.path) == path):
                state.users = None
                self.schedule(uri)
            elif state.users and any(user.path == path for user in state.users):
                self.schedule(uri)

    async def _check(self, state: DocumentState, snapshot: Snapshot) -> Checked | None:
        """Check one version; publish the result when it is still the newest."""
        await asyncio.sleep(self.settings.debounce)
        # Documents with shader code go to the worker that compiles, the rest to the
        # one that never waits for a compiler.
        shader = snapshot.kind is Kind.SHADER or "shader_code" in snapshot.text
        lane = self.shader_lane if shader else self.lint_lane
        try:
            future = asyncio.get_running_loop().run_in_executor(
                lane, self._check_in_thread, state, snapshot)
        except RuntimeError:  # the workers stopped: the server is shutting down
            return None
        try:
            checked = await self._with_progress(future, snapshot)
        except Exception:  # a bug: said in the client's log; the server carries on
            self.server.window_log_message(types.LogMessageParams(
                types.MessageType.Error,
                f"{NAME}: checking {snapshot.path} failed:\n{traceback.format_exc()}"))
            return None
        if checked is None or state.version != snapshot.version \
                or self.documents.get(snapshot.uri) is not state:
            return None  # a newer version arrived, or the document was closed
        state.checked = checked
        if self.pull:
            refresh = self.server.client_capabilities.workspace
            if refresh is not None and refresh.diagnostics is not None \
                    and refresh.diagnostics.refresh_support:
                self.server.workspace_diagnostic_refresh(None)
        else:
            self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                snapshot.uri, checked.published, snapshot.version))
        return checked

    def _check_in_thread(self, state: DocumentState, snapshot: Snapshot) -> Checked | None:
        if state.version != snapshot.version:
            return None  # superseded while it waited for the worker
        if snapshot.kind is Kind.OPS:
            return check_op_document(snapshot, self.config)
        users = state.users
        if users is None:
            users = state.users = find_users(
                snapshot.path, self.roots() or [os.path.dirname(snapshot.path)],
                self.options_for, self.text_of)
        return check_shader_document(snapshot, users, self.options_for, self.text_of)

    async def _with_progress(self, future: asyncio.Future[T], snapshot: Snapshot) -> T:
        """The future's result; progress is shown while it takes long."""
        window = self.server.client_capabilities.window
        if window is None or not window.work_done_progress:
            return await future
        done, _ = await asyncio.wait({future}, timeout=self.settings.progress_delay)
        if done:
            return future.result()
        token = f"{NAME}/{next(self._tokens)}"
        progress = self.server.work_done_progress
        try:
            await progress.create_async(token)
        except Exception:  # (the client refused the token: no progress, same result)
            return await future
        what = "the shader" if snapshot.kind is Kind.SHADER else "the shaders of"
        progress.begin(token, types.WorkDoneProgressBegin(
            NAME, message=f"checking {what} {os.path.basename(snapshot.path)}"))
        try:
            return await future
        finally:
            progress.end(token, types.WorkDoneProgressEnd(message="checked"))

    async def current(self, uri: str) -> Checked | None:
        """The result for the document's newest version, once it is there (None: not one
        of ours, or not open)."""
        for _ in range(100):  # (each turn: a newer version arrived meanwhile)
            state = self.documents.get(uri)
            if state is None:
                return None
            pending = state.pending
            if pending is None:
                return state.checked
            try:
                await asyncio.shield(pending)
            except asyncio.CancelledError:
                if not pending.cancelled():
                    raise  # (this request itself was cancelled)
            if state.pending is pending:
                return state.checked
        return None

    async def in_lane(self, shader: bool, work: Callable[[], T]) -> T:
        """Run ``work`` on a worker thread (the compiling one when it may compile)."""
        lane = self.shader_lane if shader else self.lint_lane
        return await asyncio.get_running_loop().run_in_executor(lane, work)

    def read_source(self, snapshot: Snapshot) -> SourceFile:
        """The document read into ops as `check` reads it (nothing checked)."""
        from ..sources.read import source_of

        return source_of(snapshot.text, self.options_for(snapshot.path), snapshot.path)

    def run(self) -> int:
        """Serve stdin/stdout until the client says exit (or goes away); the exit status
        the protocol asks for: 0 after a shutdown request, else 1."""
        stdin, stdout = _protocol_streams()
        try:
            self.server.start_io(stdin, stdout)
        finally:
            for lane in (self.lint_lane, self.shader_lane):
                lane.shutdown(wait=False, cancel_futures=True)
        return 0 if self.shut_down else 1


def _protocol_streams() -> tuple[Any, Any]:
    """The protocol's own copies of stdin and stdout; the process's descriptors 0 and 1
    are then /dev/null and stderr, so that nothing else (a print, a tool the checker
    starts) can read from or write into the conversation with the client."""
    import sys

    stdin = os.fdopen(os.dup(0), "rb")
    stdout = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return stdin, stdout
