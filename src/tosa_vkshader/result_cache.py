"""Checked files remembered by content: `check` does not check an unchanged file again.

A commit hook or a CI job checks thousands of files of which a few changed; like ruff's
cache, the report of a file whose verdict cannot have changed is read back instead of
being worked out again (and a run where every file is known does not even import the
checker).

The key holds everything the verdict depends on: the file's bytes, its path and whether
it was named or found in a folder, every option that applies to it (the contents of
target-device profile files included), and this tool's code (its version, the Python
version, and the size and time of every file of the package, so an edited checkout is
never answered from before the edit). Only files whose verdict depends on nothing else
are kept: JSON documents without shader code. A shader's verdict also depends on the
compiler and spirv-val found on the machine; those have caches of their own (compile
results, spirv-val verdicts, the index analysis), and its file is checked each time.

Reports live in the cache folder beside the compile cache's (``reports-v1/``), within a
size bound of their own; ``cache = false`` (``--no-cache``) turns both off. A report is
kept as the pickle of its detached form (what the reporters show: diagnostics and the
lines they are on) and read back with only this package's report classes allowed:
anything else makes it a miss.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import pickle
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .cachedir import DEFAULT_CACHE_MAX_BYTES, EntryStore, default_cache_dir
from .checked import Report
from .version import __version__

if TYPE_CHECKING:
    from .config import Options

FORMAT = 1
# What may be in an entry: the report, its diagnostics and what they hold.
_ALLOWED = {
    "tosa_vkshader.checked": {"Report"},
    "tosa_vkshader.diagnostics": {"Diagnostic", "Location", "InnerPosition", "ShaderPlace",
                                  "Edit", "Fix", "Severity", "Applicability", "Part"},
}


class ResultCache:
    """The reports of files checked before, for :func:`tosa_vkshader.api.check_paths`.

    The reports of files checked with the same options (and the same code) are kept
    together, in one entry of the cache folder (a *pack*): a run reads one file for all
    of them and writes it once, when it checked something new (creating one small file
    per report costs about half a millisecond each on a disk). A pack keeps its most
    recently checked reports within ``PACK_MAX_BYTES``; the folder keeps its most
    recently used packs within its bound."""

    PACK_MAX_BYTES = 8 * 1024 * 1024

    def __init__(self, root: Path | None = None) -> None:
        self._store = EntryStore((root or default_cache_dir()) / f"reports-v{FORMAT}",
                                 DEFAULT_CACHE_MAX_BYTES)
        self._code = _code_fingerprint()
        self._options: dict[int, tuple[Options, str]] = {}
        self._packs: dict[str, dict[str, tuple[int, bytes]]] = {}
        self._changed: set[str] = set()
        self._run = time.time_ns()  # (orders the reports of a pack by when they were made)

    def key(self, path: str, explicit: bool, data: object, options: Options) -> str | None:
        """The report's key for this file's contents, or None when its verdict may depend
        on more than the key can hold (a shader, a model, a file not read as bytes)."""
        if not options.cache or not isinstance(data, bytes) \
                or not path.lower().endswith(".json") or not _plain_json(data):
            return None
        digest = hashlib.sha256(f"{path}\0{explicit}\0".encode("utf-8", "surrogatepass"))
        digest.update(data)
        return f"{self._pack_key(options)}/{digest.hexdigest()}"

    def get(self, key: str) -> Report | None:
        pack_key, _, name = key.partition("/")
        kept = self._pack(pack_key).get(name)
        if kept is None:
            return None
        try:
            report = _Reader(io.BytesIO(kept[1])).load()
        except Exception:  # noqa: BLE001 - any damage to an entry makes it a miss
            report = None
        if not isinstance(report, Report):
            self._forget(pack_key, name)
            return None
        return report

    def put(self, key: str, report: Report) -> None:
        pack_key, _, name = key.partition("/")
        detached = report.detached() if report.source is not None else report
        self._pack(pack_key)[name] = (
            self._run, pickle.dumps(detached, protocol=pickle.HIGHEST_PROTOCOL))
        self._changed.add(pack_key)

    def close(self) -> None:
        """Write the packs this run added to, and keep the folder within its bound."""
        for pack_key in sorted(self._changed):
            # What another run wrote meanwhile is kept too (the last write still wins
            # what both wrote: a lost report is only a file checked again).
            merged = {**_read_pack(self._store.read(pack_key)), **self._packs[pack_key]}
            self._store.write(pack_key, pickle.dumps(_trimmed(merged),
                                                     protocol=pickle.HIGHEST_PROTOCOL))
        self._changed.clear()
        self._store.evict()

    def _pack(self, pack_key: str) -> dict[str, tuple[int, bytes]]:
        pack = self._packs.get(pack_key)
        if pack is None:
            pack = self._packs[pack_key] = _read_pack(self._store.read(pack_key))
        return pack

    def _forget(self, pack_key: str, name: str) -> None:
        self._pack(pack_key).pop(name, None)
        self._changed.add(pack_key)

    def _pack_key(self, options: Options) -> str:
        known = self._options.get(id(options))
        if known is None or known[0] is not options:
            digest = hashlib.sha256(self._code)
            digest.update(_options_fingerprint(options))
            known = self._options[id(options)] = (options, "p" + digest.hexdigest())
        return known[1]


def _read_pack(raw: bytes | None) -> dict[str, tuple[int, bytes]]:
    """A pack's reports by key (still pickled: each is read when its file comes up); an
    empty pack when there is none or it is damaged."""
    if raw is None:
        return {}
    try:
        pack = _Reader(io.BytesIO(raw)).load()
    except Exception:  # noqa: BLE001 - a damaged pack is an empty one
        return {}
    if not isinstance(pack, dict) or not all(
            isinstance(k, str) and isinstance(v, tuple) and len(v) == 2
            and isinstance(v[0], int) and isinstance(v[1], bytes) for k, v in pack.items()):
        return {}
    return pack


def _trimmed(pack: dict[str, tuple[int, bytes]]) -> dict[str, tuple[int, bytes]]:
    """The pack within ``PACK_MAX_BYTES``: the reports made most recently kept."""
    size = sum(len(k) + len(v[1]) for k, v in pack.items())
    if size <= ResultCache.PACK_MAX_BYTES:
        return pack
    kept: dict[str, tuple[int, bytes]] = {}
    budget = ResultCache.PACK_MAX_BYTES * 3 // 4
    for name, entry in sorted(pack.items(), key=lambda item: item[1][0], reverse=True):
        budget -= len(name) + len(entry[1])
        if budget < 0:
            break
        kept[name] = entry
    return kept


def _plain_json(data: bytes) -> bool:
    """Whether the document surely holds no shader: no ``shader_code`` key, not even one
    spelt with escapes (no backslash at all), and not UTF-16 or UTF-32 (no NUL byte)."""
    return b"shader_code" not in data and b"\\" not in data and b"\0" not in data


def _options_fingerprint(options: Options) -> bytes:
    fields = []
    for field in dataclasses.fields(options):
        value = getattr(options, field.name)
        if isinstance(value, dict):
            value = sorted(value.items())
        fields.append((field.name, value))
    profiles: list[str | None] = []
    for spec in options.target_device:  # a file's contents, not only its name
        name = spec.partition("#")[0]
        try:
            profiles.append(hashlib.sha256(Path(name).read_bytes()).hexdigest())
        except OSError:
            profiles.append(None)  # a shipped profile: part of the package
    return repr((fields, profiles)).encode("utf-8", "surrogatepass")


def _code_fingerprint() -> bytes:
    """This package's code as installed: version, Python, and each file's size and time."""
    root = Path(__file__).parent
    digest = hashlib.sha256(f"{__version__}\0{sys.version}\0".encode())
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(files):
            path = os.path.join(folder, name)
            try:
                stat = os.stat(path)
            except OSError:
                continue
            digest.update(f"{os.path.relpath(path, root)}\0{stat.st_size}\0"
                          f"{stat.st_mtime_ns}\n".encode("utf-8", "surrogatepass"))
    return digest.digest()


class _Reader(pickle.Unpickler):
    """Unpickles a report and nothing else (the Python documentation's way to restrict
    what a pickle may make)."""

    def find_class(self, module: str, name: str) -> type:
        if name in _ALLOWED.get(module, ()):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a cached report")
