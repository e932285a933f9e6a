"""The requests about a place in a document: hover, completion, go to definition. Each
reads the document as it is now (the readers of `check`, on a worker thread); hover also
shows the rules of the diagnostics under the cursor."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from lsprotocol import types

from .actions import FIX_ALL, KINDS, fix_all, quick_fixes, wanted
from .completion import completions
from .convert import uri_of
from .cursor import key_at, locate, op_at
from .definition import declaration
from .documents import Kind
from .hover import key_markdown, rule_markdown
from .positions import Lines
from .shaders import shader_of_sidecar

if TYPE_CHECKING:
    from .server import Session


def register(session: Session) -> None:
    session.handle(types.TEXT_DOCUMENT_HOVER, partial(_hover, session))
    session.handle(types.TEXT_DOCUMENT_COMPLETION, partial(_complete, session),
                   types.CompletionOptions(trigger_characters=['"', "_"]))
    session.handle(types.TEXT_DOCUMENT_DEFINITION, partial(_definition, session))
    session.handle(types.TEXT_DOCUMENT_CODE_ACTION, partial(_code_actions, session),
                   types.CodeActionOptions(code_action_kinds=KINDS))


def _contains(range_: types.Range, position: types.Position) -> bool:
    start, end = range_.start, range_.end
    return (start.line, start.character) <= (position.line, position.character) \
        <= (end.line, end.character)


async def _hover(session: Session, params: types.HoverParams) -> types.Hover | None:
    snapshot = session.snapshot(params.text_document.uri)
    if snapshot is None:
        return None
    parts: list[str] = []
    state = session.documents.get(snapshot.uri)
    checked = state.checked if state is not None else None
    if checked is not None and checked.snapshot.version == snapshot.version:
        codes = dict.fromkeys(str(d.code) for d in checked.published
                              if _contains(d.range, params.position))
        parts.extend(text for code in codes if (text := rule_markdown(code)) is not None)
    if snapshot.kind is Kind.OPS:
        line, column = Lines(snapshot.text, snapshot.encoding).place(params.position)
        place = await session.in_lane(
            False, lambda: key_at(session.read_source(snapshot), line, column))
        text = key_markdown(place) if place is not None else None
        if text is not None:
            parts.insert(0, text)
    if not parts:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown,
                                           "\n\n---\n\n".join(parts)))


async def _complete(session: Session, params: types.CompletionParams
                    ) -> types.CompletionList | None:
    snapshot = session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is not Kind.OPS:
        return None
    lines = Lines(snapshot.text, snapshot.encoding)
    offset = lines.offset(params.position)
    before = snapshot.text[lines.starts()[params.position.line]:offset] \
        if params.position.line < len(lines.starts()) else ""
    line, column = lines.place(params.position)

    def op_text() -> str:
        op = op_at(session.read_source(snapshot), line, column)
        whole = locate(op, None) if op is not None else None
        if whole is None or whole.end_line is None or whole.end_column is None:
            return snapshot.text  # (text that does not parse: its keys are all there is)
        start = lines.offset(lines.position(whole.line, whole.column))
        return snapshot.text[start:lines.offset(lines.position(whole.end_line,
                                                               whole.end_column))]

    text = await session.in_lane(False, op_text)
    quote = '"' if not snapshot.path.lower().endswith(".mlir") else \
        '\\"' if '\\"' in before else "\\22"
    return types.CompletionList(False, completions(before, text, quote, params.position))


async def _definition(session: Session, params: types.DefinitionParams
                      ) -> types.Location | None:
    snapshot = session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is not Kind.OPS:
        return None
    line, column = Lines(snapshot.text, snapshot.encoding).place(params.position)

    def find() -> tuple[str, types.Range] | None:
        place = key_at(session.read_source(snapshot), line, column)
        if place is None:
            return None
        shader_path = shader_of_sidecar(snapshot.path)
        shader_text = session.text_of(shader_path) if shader_path is not None else None
        found = declaration(place, session.options_for(snapshot.path),
                            (shader_path, shader_text)
                            if shader_path is not None and shader_text is not None else None)
        if found is None:
            return None
        if found.path is not None and found.path == shader_path and shader_text is not None:
            return shader_path, Lines(shader_text, snapshot.encoding).range(found)
        return snapshot.path, Lines(snapshot.text, snapshot.encoding).range(found)

    found = await session.in_lane(True, find)
    if found is None:
        return None
    path, range_ = found
    return types.Location(snapshot.uri if path == snapshot.path else uri_of(path), range_)


async def _code_actions(session: Session, params: types.CodeActionParams
                        ) -> list[types.CodeAction] | None:
    """Quick fixes for the diagnostics in the range, and fix all, for the version of the
    document the editor has (none while its check is still to come)."""
    snapshot = session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is not Kind.OPS:
        return None
    checked = await session.current(snapshot.uri)
    if checked is None or checked.report is None \
            or checked.snapshot.version != snapshot.version:
        return None
    unsafe = session.settings.unsafe_fixes
    workspace = session.server.client_capabilities.workspace
    versioned = bool(workspace is not None and workspace.workspace_edit is not None
                     and workspace.workspace_edit.document_changes)
    only = list(params.context.only) if params.context.only else None
    actions: list[types.CodeAction] = []
    if wanted(types.CodeActionKind.QuickFix, only):
        actions += quick_fixes(checked, params.range, unsafe, versioned)
    if wanted(FIX_ALL, only) and any(d.fix is not None and d.fix.applies(unsafe)
                                     for d in checked.found):
        options = session.options_for(snapshot.path)
        whole = await session.in_lane("shader_code" in snapshot.text,
                                      lambda: fix_all(checked, options, unsafe, versioned))
        if whole is not None:
            actions.append(whole)
    return actions
