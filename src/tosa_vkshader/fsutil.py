"""Files: read within limits without blocking, written so a reader never sees half of one."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from io import FileIO

# The temporary files of this process that are not yet renamed into place. A name is
# recorded here before its file is created, so that every way out of a write removes
# the file: write_atomic's own clean-up, and remove_temporaries(), which the command
# line's SIGINT/SIGTERM handlers call before they stop the command (a signal can land
# anywhere, even in the middle of that clean-up) and again when the command ends.
_TEMPORARIES: set[str] = set()

# Steps of write_atomic, named so a test can stop the process at each of them.
WRITE_STEPS = ("reserved", "created", "written", "synced", "replaced")
# Called with each step's name and the file being written as write_atomic reaches the
# step (None: not called). For tests that deliver a signal at a chosen step instead of
# racing a timer.
on_write_step: Callable[[str, Path], None] | None = None

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC


def write_atomic(path: str | os.PathLike[str], data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it into place.

    What is overwritten is kept as it was: a symbolic link is written through (its
    target gets the new content, the link stays a link) and an existing file keeps its
    mode; a new file gets the usual mode (0666 less the umask). Raises OSError
    (IsADirectoryError, FileNotFoundError, ...) when ``path`` cannot be written. The
    temporary file never outlives the write: it is removed on an error, and on Ctrl-C
    or SIGTERM at any step (see ``_TEMPORARIES``). ``durable=False`` leaves out the
    fsync (a file that is made again by running again need not survive a power cut;
    the rename still keeps a reader from seeing half of it).
    """
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", os.fspath(path))
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    name, fd = _create_temporary(target)
    try:
        with os.fdopen(fd, "wb") as handle:
            _step("created", target)
            handle.write(data)
            handle.flush()
            _step("written", target)
            os.fchmod(handle.fileno(), mode)
            if durable:
                os.fsync(handle.fileno())
        _step("synced", target)
        os.replace(name, target)
        _TEMPORARIES.discard(name)  # (renamed: nothing of it is left to remove)
        _step("replaced", target)
    finally:
        _remove_temporary(name)


def _create_temporary(target: Path) -> tuple[str, int]:
    """A new, empty temporary file beside ``target`` (its name and an open descriptor),
    recorded in ``_TEMPORARIES`` before it is created."""
    while True:
        name = os.path.join(target.parent, f".{target.name}.{os.urandom(6).hex()}.tmp")
        _TEMPORARIES.add(name)
        try:
            _step("reserved", target)
            return name, os.open(name, _CREATE, 0o600)
        except FileExistsError:  # another file's name (one in 2**48): not ours to remove
            _TEMPORARIES.discard(name)
        except BaseException:
            _remove_temporary(name)
            raise


def _step(name: str, target: Path) -> None:
    if on_write_step is not None:
        on_write_step(name, target)


def _remove_temporary(name: str) -> None:
    if name in _TEMPORARIES:
        # Removed before it is forgotten: a signal between the two finds it again.
        with contextlib.suppress(OSError):  # (already gone, or its folder is)
            os.unlink(name)
        _TEMPORARIES.discard(name)


def remove_temporaries() -> None:
    """Remove every temporary file of a write that has not finished (a no-op when none
    is under way). Safe to call at any moment, from a signal handler too."""
    for name in list(_TEMPORARIES):
        _remove_temporary(name)


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
        self.reason = reason
        self.strerror = reason
        self.filename = path
        self.too_large = too_large

    def __str__(self) -> str:
        return self.reason


def read_limited(path: str | os.PathLike[str], limit: int = DEFAULT_READ_LIMIT) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; raises OSError otherwise.

    The file is opened without blocking (a FIFO with no writer would hang a plain open),
    checked with fstat (so what is checked is what is read), and read up to limit + 1
    bytes: a file that grows meanwhile is refused, never read whole.
    """
    name = os.fspath(path)
    fd, size = _open_regular(name, limit)
    try:
        return _read_open(fd, size, name, limit)
    finally:
        os.close(fd)


def _read_open(fd: int, size: int, name: str, limit: int) -> bytes:
    # One read of the size fstat gave, plus a byte: a short read is the end of the file
    # (a buffer of exactly that size, not a megabyte to shrink, for every file).
    first = os.read(fd, size + 1)
    chunks = [first]
    left = limit + 1 - len(first)
    while left > 0 and len(chunks[-1]) > 0 and len(first) > size:
        chunk = os.read(fd, min(left, 1 << 20))  # it grew while being read
        chunks.append(chunk)
        left -= len(chunk)
    data = b"".join(chunks)
    if len(data) > limit:
        raise InputRefused(name, f"the file grew beyond the limit of {limit} bytes while "
                                 "being read", too_large=True)
    return data


# From this size on, a model is read where it is looked at, from its open file.
OPENED_FROM = 1 << 20


def open_limited(path: str | os.PathLike[str], limit: int = DEFAULT_READ_LIMIT,
                 ) -> bytes | FileIO:
    """The bytes of a regular file of at most ``limit`` bytes, as :func:`read_limited`
    reads them; from a megabyte on, the open file instead (a model with its weights: tens
    of megabytes, of which a reader looks at a few kilobytes: ``sources.modeltext`` reads
    it a piece at a time, up to the size the file had when it was opened)."""
    name = os.fspath(path)
    fd, size = _open_regular(name, limit)
    if size >= OPENED_FROM:
        return open(fd, "rb", buffering=0)  # (a FileIO that closes the descriptor)
    try:
        return _read_open(fd, size, name, limit)
    finally:
        os.close(fd)


def _open_regular(name: str, limit: int) -> tuple[int, int]:
    """A descriptor of the regular file ``name`` and its size, at most ``limit``."""
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
    except BaseException:
        os.close(fd)
        raise
    return fd, info.st_size


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
