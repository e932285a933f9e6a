"""The command line: a thin layer over the API. Exit codes: 0 clean, 1 errors, 2 usage.

Only ``os`` and ``sys`` are imported up front (the interpreter has loaded them already):
argparse, signal and the command modules are imported when a command needs them.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from .version import __version__

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from typing import Any


# Each command module has register(subparsers); the parser it adds sets `run`.
COMMANDS = ("check", "new", "fix", "emit", "compile", "reflect", "rule", "run", "verify",
            "serve", "devices", "lsp")

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
# The shell's convention: 128 + the signal's number (SIGINT is 2, SIGTERM 15 by POSIX).
EXIT_INTERRUPTED, EXIT_TERMINATED = 128 + 2, 128 + 15


class Terminated(BaseException):
    """SIGTERM, raised like Ctrl-C's KeyboardInterrupt so that the same clean-up runs
    (temporary files beside an output are removed, compiler processes are killed)."""


def _stop_on_signals() -> None:
    """Ctrl-C and SIGTERM stop the command by an exception (KeyboardInterrupt,
    :class:`Terminated`), after removing the temporary file of any write under way: the
    exception may land anywhere, even in the clean-up that would remove it."""
    import signal

    from .fsutil import remove_temporaries

    def interrupted(signum: int, frame: object) -> None:
        remove_temporaries()
        raise KeyboardInterrupt

    def terminated(signum: int, frame: object) -> None:
        remove_temporaries()
        raise Terminated

    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # (not ignored)
            signal.signal(signal.SIGINT, interrupted)
        signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread (e.g. main() called from a worker thread)
        pass


def _parser(**options: Any) -> argparse.ArgumentParser:
    """argparse's parser, laying help out as wide as the terminal, found without `shutil`:
    argparse makes a help formatter for every argument it adds, and the formatter imports
    `shutil` (with `bz2` and `lzma`) for the width: 2 ms of every command. (The class is
    made here, with argparse imported when a parser is needed.)"""
    import argparse

    class Parser(argparse.ArgumentParser):
        def _get_formatter(self) -> argparse.HelpFormatter:
            # (typeshed gives formatter_class only a `prog` parameter; every HelpFormatter
            # takes `width`)
            formatter: Callable[..., argparse.HelpFormatter] = self.formatter_class
            return formatter(prog=self.prog, width=_help_width())

    return Parser(**options)


def _help_width() -> int:
    """What ``shutil.get_terminal_size().columns - 2`` gives argparse: ``$COLUMNS``, else
    the width of the terminal on stdout, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:  # (None: started without a stdout)
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; given ``argv``, only the command it names is imported (start-up time
    matters for a commit hook: `check` must not pay for codegen, pydantic or the web)."""
    import importlib

    parser = _parser(
        prog="tosa-vkshader",
        description="Validate TOSA custom ops that embed a Vulkan compute shader.",
    )
    parser.add_argument("-V", "--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = next((arg for arg in argv or () if not arg.startswith("-")), None)
    for name in (wanted,) if wanted in COMMANDS else COMMANDS:
        importlib.import_module(f"tosa_vkshader.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default: this program's own, ``sys.argv``) and
    return its exit status."""
    return _main(sys.argv[1:] if argv is None else argv)


def program() -> None:
    """The ``tosa-vkshader`` program (and ``python -m tosa_vkshader``): run this
    process's command line, then leave at once (it never returns).

    Every command has finished its work when it returns (outputs written and closed,
    temporary folders removed, child processes waited for), so nothing is left for the
    interpreter's shutdown but freeing memory the exit frees anyway: its collections and
    module teardown walked every object of numpy and the checker (20-25 ms of `run`,
    6 ms of a `check` of 500 files). The output is flushed first.

    The cyclic garbage collector runs after every 50,000 net allocations instead of 700:
    a check makes many small objects and almost no cycles, and the default made it walk
    the young objects hundreds of times (3 % of a check of 500 files); what cycles there
    are still get collected, just later."""
    import gc

    gc.set_threshold(50_000)
    code = _main(sys.argv[1:])
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`| head`) or a closed stream
            pass
    os._exit(code)


def _main(argv: list[str]) -> int:
    if argv in (["--version"], ["-V"]):  # answered before any command module is imported
        print(f"tosa-vkshader {__version__}")
        return EXIT_OK
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    if args.command != "serve":  # the server has its own shutdown
        _stop_on_signals()
    return _guarded(lambda: args.run(args))


def _guarded(command: Callable[[], int]) -> int:
    """The command's exit status, with Ctrl-C, SIGTERM and a closed output pipe turned
    into the exit statuses the shell expects."""
    try:
        return command()
    except BrokenPipeError:  # e.g. `tosa-vkshader check . | head`
        sys.stderr.close()
        return EXIT_ERRORS
    except KeyboardInterrupt:
        print("tosa-vkshader: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print("tosa-vkshader: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    finally:
        from .fsutil import remove_temporaries

        remove_temporaries()  # however the command ended, no temporary file outlives it


if __name__ == "__main__":
    sys.exit(main())
