"""Where the caches of a run live on disk (compile results, spirv-val verdicts, the
reports of checked files, the emulation layers' manifests for `run`), and the store their
entries are kept in.

A module of its own so that every stage can find the folder without importing the
compile stage for a folder name. On Linux the usual case is answered as platformdirs
answers it (``$XDG_CACHE_HOME`` when it is an absolute path, else ``~/.cache``, then
``tosa-vkshader``) without importing platformdirs (6 ms, more than `run` may spend before
it starts the converter); anything else asks platformdirs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .fsutil import write_atomic

ENV_VAR = "TOSA_VKSHADER_CACHE_DIR"
APP = "tosa-vkshader"


def default_cache_dir() -> Path:
    """``$TOSA_VKSHADER_CACHE_DIR``, else the user cache folder of this platform."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override)
    usual = _linux_user_cache_dir()
    if usual is not None:
        return usual
    import platformdirs  # only when a cache is actually used

    return Path(platformdirs.user_cache_dir(APP))


def _linux_user_cache_dir() -> Path | None:
    """platformdirs' answer on Linux with an absolute ``$HOME`` (or none) and
    ``$XDG_CACHE_HOME`` unset, empty or absolute; None otherwise."""
    if sys.platform != "linux":
        return None
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / APP
    if xdg.strip():  # a relative value: versions of platformdirs differ on it
        return None
    home = os.environ.get("HOME")
    if home is not None and not os.path.isabs(home):
        return None
    base = os.path.expanduser("~/.cache")
    return Path(base) / APP if os.path.isabs(base) else None


# Entries of every cache in the folder together stay under this many bytes by default.
DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024
_SUFFIX = ".json"  # (what the compile cache has always named its entries)


class EntryStore:
    """Bytes by key in a folder: each entry a file (``root/KEY[:2]/KEY.json``) written
    atomically (a reader sees the old or the new file), read without a lock, and the
    folder kept under ``max_bytes`` by removing the least recently used entries. Failures
    never stop a run: the first is kept in ``problem`` for the caller to report."""

    def __init__(self, root: Path, max_bytes: int) -> None:
        self.root = root
        self.max_bytes = max_bytes
        self.problem: str | None = None  # first failure, reported once per run
        self.wrote = False

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / (key + _SUFFIX)

    def read(self, key: str) -> bytes | None:
        """The bytes stored under ``key`` (the entry counts as used), or None."""
        path = self._path(key)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._note(exc)
            return None
        try:
            os.utime(path)  # least recently *used* eviction
        except OSError:
            pass
        return raw

    def write(self, key: str, data: bytes) -> None:
        """Store ``data`` under ``key``."""
        if self._write(self._path(key), data):
            self.wrote = True

    def drop(self, key: str) -> None:
        """Forget ``key`` (a damaged entry)."""
        try:
            self._path(key).unlink(missing_ok=True)
        except OSError as exc:
            self._note(exc)

    def _write(self, path: Path, data: bytes) -> bool:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, data, durable=False)
        except OSError as exc:
            self._note(exc)
            return False
        return True

    def evict(self) -> None:
        """Remove least recently used entries until the folder is at most 80% of its
        bound (when this run wrote to it)."""
        if not self.wrote:
            return
        entries: list[tuple[float, int, str]] = []
        total = 0
        try:
            for sub in os.scandir(self.root):
                if not sub.is_dir():
                    continue
                for item in os.scandir(sub.path):
                    if not item.name.endswith(_SUFFIX):  # (another run is writing it)
                        continue
                    st = item.stat()
                    entries.append((st.st_mtime, st.st_size, item.path))
                    total += st.st_size
        except OSError as exc:
            self._note(exc)
            return
        if total <= self.max_bytes:
            return
        entries.sort()
        goal = self.max_bytes * 0.8
        for _, size, path in entries:
            if total <= goal:
                break
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            except OSError as exc:
                self._note(exc)
                return
            total -= size

    def _note(self, exc: OSError) -> None:
        if self.problem is None:
            self.problem = f"{exc.strerror or exc} ({getattr(exc, 'filename', '') or self.root})"
