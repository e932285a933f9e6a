"""`run`'s usual command lines read without argparse (2 ms to import, and its parser needs
the command module with the checker's configuration behind it), for the fast lane.

Only a plain subset is read: the options as `run --help` spells them, each value in the
next argument and not starting with ``-``. Anything else (``--help``, an abbreviation,
``--opt=value``, ``--``, ``--device``, ``--list-devices``, op JSON options, a second
MODEL, a missing MODEL or OUTDIR, a non-positive --timeout, a value argparse would not
convert) is left to argparse: :func:`read_run_argv` answers None. What it does read, it
reads as argparse does (tests/test_run_fast.py compares the two).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

# option -> (destination, how its value is read; None: a flag)
_OPTIONS = {
    "-i": ("inputs", str), "--input": ("inputs", str),
    "-o": ("output_dir", str), "--output-dir": ("output_dir", str),
    "--push-constants": ("push_constants", Path),
    "--expect": ("expect", str),
    "--rtol": ("rtol", float), "--atol": ("atol", float),
    "--timeout": ("timeout", float),
    "--config": ("config", Path),
    "--keep-workdir": ("keep_workdir", None),
    "--no-cache": ("no_cache", None),
}
_REPEATED = ("inputs", "expect")


def defaults() -> dict[str, object]:
    """What argparse sets for `run` when an option is not given."""
    return {"command": "run", "model": None, "inputs": [], "output_dir": None,
            "push_constants": None, "expect": [], "rtol": 1e-5, "atol": 1e-6,
            "device": None, "list_devices": False, "timeout": None, "keep_workdir": False,
            "operands": None, "results": None, "name": None, "config": None,
            "no_cache": False, "workgroup_semantics": None}


def read_run_argv(argv: list[str]) -> SimpleNamespace | None:
    """The arguments of ``run ARGV...`` (``argv`` without ``run``), or None."""
    args = defaults()
    index = 0
    while index < len(argv):
        token = argv[index]
        index += 1
        if not token.startswith("-"):
            if args["model"] is not None:
                return None
            args["model"] = token
            continue
        option = _OPTIONS.get(token)
        if option is None:
            return None
        destination, read = option
        if read is None:
            args[destination] = True
            continue
        if index == len(argv) or argv[index].startswith("-"):
            return None
        try:
            value = read(argv[index])
        except ValueError:
            return None
        index += 1
        if destination in _REPEATED:
            args[destination] = [*args[destination], value]  # type: ignore[list-item]
        else:
            args[destination] = value
    timeout = args["timeout"]
    if args["model"] is None or args["output_dir"] is None or \
            (timeout is not None and not timeout > 0):  # type: ignore[operator]
        return None
    return SimpleNamespace(**args)
