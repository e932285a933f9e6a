"""The run's work directory: a private folder for the tools' files, made as
``tempfile.mkdtemp(prefix="tosa-vkshader-run-")`` makes it, without importing
``tempfile`` (``random``, ``shutil`` and more: 7 ms before the converter could start).

Where: ``tempfile.tempdir`` when set (by a program, or by ``tempfile`` once it has
chosen); ``$TMPDIR``, ``$TEMP`` or ``$TMP`` when set (as ``tempfile.gettempdir``); else
``/dev/shm``, the memory file system, when it has room for the run several times over;
else ``/tmp``, ``/var/tmp``, ``/usr/tmp`` and the working directory, the first where a
folder can be made. The files are scratch that the tools hand each other, and on a disk
every file made and removed is a journal entry: on this machine's ext4, removing a run's
folder took 0.5 ms when the disk was quiet and 10-20 ms when other processes wrote, on
the command's critical path; in memory it takes a tenth of a millisecond.
"""

from __future__ import annotations

import os
import sys

PREFIX = "tosa-vkshader-run-"
MEMORY = "/dev/shm"
# /dev/shm is used when it has this much room beyond four times the run's size (so not
# in a container's default 64 MiB one)
_MEMORY_SPARE = 64 * 1024 * 1024
_TRIES = 100


def make_workdir(size_hint: int = 0) -> str:
    """A new folder only this user can enter, for a run of about ``size_hint`` bytes
    (the model and the inputs); its absolute path."""
    error: OSError | None = None
    for parent in _candidates(size_hint):
        for _ in range(_TRIES):
            path = os.path.join(parent, PREFIX + os.urandom(6).hex())
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                continue
            except OSError as exc:  # not writable, not there: the next candidate
                error = exc
                break
            return os.path.abspath(path)
    raise error or FileExistsError(f"no unused name for a folder {PREFIX}*")


def remove_workdir(path: str) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def _candidates(size_hint: int) -> list[str]:
    # set by a program, or kept by tempfile.gettempdir() once it has looked
    chosen = getattr(sys.modules.get("tempfile"), "tempdir", None)
    if chosen:
        return [chosen]
    found = [os.environ[name] for name in ("TMPDIR", "TEMP", "TMP") if os.environ.get(name)]
    if not found and _has_room(MEMORY, 4 * size_hint + _MEMORY_SPARE):
        found.append(MEMORY)
    found += ["/tmp", "/var/tmp", "/usr/tmp"]
    try:
        found.append(os.getcwd())
    except OSError:
        pass
    return found


def _has_room(folder: str, size: int) -> bool:
    try:
        stats = os.statvfs(folder)
    except OSError:  # not there (not Linux)
        return False
    return stats.f_bavail * stats.f_frsize >= size
