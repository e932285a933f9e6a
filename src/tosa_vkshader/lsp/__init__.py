"""The language server (`tosa-vkshader lsp`): the checker in an editor, over stdio.

A thin front door, as the web is: it reads documents as `check` reads files and checks
them through the same pipeline (``api.check_text``, ``check.check_ops``), with the
configuration nearest to each file; it adds only what an editor asks for (positions in
the client's encoding, checks off the event loop, hover, completion, definition, code
actions). Needs the ``lsp`` extra (pygls, lsprotocol). See docs/editors.md.
"""
