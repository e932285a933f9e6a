"""Files: read within limits without blocking, written so a reader never sees half of one."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it into place.

    What is overwritten is kept as it was: a symbolic link is written through (its
    target gets the new content, the link stays a link) and an existing file keeps its
    mode; a new file gets the usual mode (0666 less the umask), not mkstemp's 0600.
    Raises OSError (IsADirectoryError, FileNotFoundError, ...) when ``path`` cannot be
    written; the temporary file never outlives an error, Ctrl-C or SIGTERM (the CLI turns
    SIGTERM into an exception).
    """
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", os.fspath(path))
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


# The limit when no options say otherwise (Options.max_file_size has the same default).
DEFAULT_READ_LIMIT = 16 * 1024 * 1024


class InputRefused(OSError):
    """A path that is not read: not a regular file, or larger than the limit.

    An OSError, so every caller that reports "cannot read PATH: REASON" reports it too;
    ``too_large`` tells the two cases apart for callers with a rule for each.
    """

    def __init__(self, path: str, reason: str, *, too_large: bool = False) -> None:
        super().__init__(reason)
        self.strerror = reason
        self.filename = path
        self.too_large = too_large

    def __str__(self) -> str:
        return self.strerror


def read_limited(path: str | os.PathLike[str], limit: int = DEFAULT_READ_LIMIT) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; raises OSError otherwise.

    The file is opened without blocking (a FIFO with no writer would hang a plain open),
    checked with fstat (so what is checked is what is read), and read up to limit + 1
    bytes: a file that grows meanwhile is refused, never read whole.
    """
    name = os.fspath(path)
    before = os.stat(name)  # a device or FIFO is refused before it is even opened
    if not stat.S_ISREG(before.st_mode):
        raise InputRefused(name, f"{_kind(before.st_mode)}, not a regular file")
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputRefused(name, f"{_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise InputRefused(name, f"the file is {info.st_size} bytes; the limit is "
                                     f"{limit} bytes", too_large=True)
        # One read of the size fstat gave, plus a byte: a short read is the end of the
        # file (a buffer of exactly that size, not a megabyte to shrink, for every file).
        first = os.read(fd, info.st_size + 1)
        chunks = [first]
        left = limit + 1 - len(first)
        while left > 0 and len(chunks[-1]) > 0 and len(first) > info.st_size:
            chunk = os.read(fd, min(left, 1 << 20))  # it grew while being read
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputRefused(name, f"the file grew beyond the limit of {limit} bytes while "
                                 "being read", too_large=True)
    return data


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def link_leaves(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """Whether ``path`` (found by walking ``root``) resolves to somewhere outside it."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    return os.path.commonpath([real_root, real]) != real_root
