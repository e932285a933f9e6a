"""Code actions from the diagnostics' own fixes (the edits `tosa-vkshader fix` makes):
a quick fix for each diagnostic under the cursor, and fix all for the file
(``source.fixAll.tosa-vkshader``), which is `fix` on the editor's text. A fix whose
applicability is unsafe is offered only with the setting ``unsafeFixes``; a display-only
one is never applied by a tool, so never offered."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ..diagnostics import Applicability

if TYPE_CHECKING:
    from ..config import Options
    from .checking import Checked

FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.tosa-vkshader"
KINDS = [types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll, FIX_ALL]


def wanted(kind: str, only: list[str] | None) -> bool:
    """Whether the client asked for actions of ``kind`` (kinds nest: ``source`` asks for
    ``source.fixAll.tosa-vkshader`` too)."""
    return not only or any(kind == asked or kind.startswith(asked + ".") for asked in only)


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def workspace_edit(checked: Checked, edits: list[types.TextEdit],
                   versioned: bool) -> types.WorkspaceEdit:
    """The edits of one document, for the version they were made for where the client
    takes versioned edits."""
    snapshot = checked.snapshot
    if versioned:
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
            types.OptionalVersionedTextDocumentIdentifier(uri=snapshot.uri,
                                                          version=snapshot.version),
            list(edits))])
    return types.WorkspaceEdit(changes={snapshot.uri: list(edits)})


def quick_fixes(checked: Checked, where: types.Range, unsafe: bool,
                versioned: bool) -> list[types.CodeAction]:
    """One action for each diagnostic in ``where`` whose fix may be applied."""
    actions = []
    for found, published in zip(checked.found, checked.published, strict=True):
        fix = found.fix
        if fix is None or not fix.applies(unsafe) or not _overlaps(published.range, where):
            continue
        edits = [types.TextEdit(checked.lines.range(edit.range), edit.text)
                 for edit in fix.edits if edit.range is not None and edit.text is not None]
        safe = fix.applicability is Applicability.SAFE
        actions.append(types.CodeAction(
            f"{fix.title} ({found.code})" if safe else f"{fix.title} ({found.code}, unsafe)",
            kind=types.CodeActionKind.QuickFix, diagnostics=[published], is_preferred=safe,
            edit=workspace_edit(checked, edits, versioned)))
    return actions


def fix_all(checked: Checked, options: Options, unsafe: bool,
            versioned: bool) -> types.CodeAction | None:
    """`tosa-vkshader fix` on the document's text, as one edit of the whole text; None
    when it changes nothing."""
    from ..codegen.repair import repair

    snapshot = checked.snapshot
    repaired = repair(snapshot.text, snapshot.path, options, unsafe=unsafe)
    if not repaired.changed or repaired.fixed is None:
        return None
    lines = checked.lines
    whole = types.Range(types.Position(0, 0), lines.point(len(snapshot.text)))
    return types.CodeAction(
        "tosa-vkshader: fix all" + (" (unsafe fixes too)" if unsafe else ""), kind=FIX_ALL,
        edit=workspace_edit(checked, [types.TextEdit(whole, repaired.fixed)], versioned))
