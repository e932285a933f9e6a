"""`tosa-vkshader lsp`: the language server, over stdin and stdout (docs/editors.md)."""

from __future__ import annotations

import argparse
import sys

from ._common import EXIT_USAGE


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "lsp", help="run the language server on stdin/stdout (for editors)",
        description="Serve the Language Server Protocol on stdin and stdout: diagnostics, "
                    "code actions, hover, completion and go to definition for attribute "
                    "JSON, MLIR models and their shaders. Needs the `lsp` extra.")
    parser.add_argument("--stdio", action="store_true",
                        help="talk over stdin/stdout (the default and only transport; "
                             "accepted because many editors pass it)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError as exc:
        print(f"tosa-vkshader lsp: the language server needs the `lsp` extra ({exc.name} is "
              "not installed): pip install '.[lsp]' from a checkout of tosa-vkshader, or "
              "pip install pygls lsprotocol", file=sys.stderr)
        return EXIT_USAGE
    from ..lsp.app import serve

    return serve()  # 0 after the client's shutdown request, else 1 (as the protocol asks)
