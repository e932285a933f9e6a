"""The run's work directory: a private folder in the temporary directory, as
``tempfile.mkdtemp(prefix="tosa-vkshader-run-")`` makes it, without importing
``tempfile`` (``random``, ``shutil`` and more: 7 ms before the converter could start).

The temporary directory is chosen as ``tempfile.gettempdir`` chooses it: ``$TMPDIR``,
``$TEMP``, ``$TMP``, then ``/tmp``, ``/var/tmp``, ``/usr/tmp`` and the working directory,
the first where a folder can be made.
"""

from __future__ import annotations

import os

PREFIX = "tosa-vkshader-run-"
_TRIES = 100


def make_workdir() -> str:
    """A new folder only this user can enter; its absolute path."""
    error: OSError | None = None
    for parent in _candidates():
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


def _candidates() -> list[str]:
    found = [os.environ[name] for name in ("TMPDIR", "TEMP", "TMP") if os.environ.get(name)]
    found += ["/tmp", "/var/tmp", "/usr/tmp"]
    try:
        found.append(os.getcwd())
    except OSError:
        pass
    return found
