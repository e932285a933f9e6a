"""Where a fix's edit goes in the JSON text of an op's attributes (see fixes.py).

An edit names a key, a value, or the place after a member, by JSON pointer; here it
becomes offsets in the JSON text and the JSON to put there. The op's locator then maps
the offsets into the file (through the escapes of an MLIR or JSON string that holds the
attributes) and writes the JSON as that string does.
"""

from __future__ import annotations

from ..diagnostics import Edit, Part
from .jsontext import JsonDocument


def edit_offsets(document: JsonDocument, pointer: str, edit: Edit
                 ) -> tuple[int, int, str] | None:
    """``(start, end, JSON text)`` in ``document.text`` for ``edit``, whose place is the
    member at ``pointer`` (the edit's own pointer below the op's attributes); None when
    the document has no such member."""
    span = document.span(pointer)
    if span is None:
        return None
    text = document.text
    newline = "\r\n" if "\r\n" in text else "\n"
    if edit.part is Part.VALUE:
        # A value over several lines is laid out under the line it starts on.
        indent = _indentation(text, span.value_start)
        return (span.value_start, span.value_end,
                edit.content.replace("\n", newline + indent))
    if span.key_start is None or span.key_end is None:
        return None  # (the attribute object itself, or an array's item: no key)
    if edit.part is Part.KEY:
        return span.key_start, span.key_end, edit.content
    # A new member after this one, laid out like it: on a line of its own with the same
    # indentation when this one has a line of its own, else on the same line.
    line_start = text.rfind("\n", 0, span.key_start) + 1
    own_line = not text[line_start:span.key_start].strip()
    separator = f",{newline}{text[line_start:span.key_start]}" if own_line else ", "
    return span.value_end, span.value_end, separator + edit.content


def _indentation(text: str, offset: int) -> str:
    """The white space that starts the line ``offset`` is on."""
    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:offset]
    return line[:len(line) - len(line.lstrip(" \t"))]
