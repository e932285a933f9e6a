"""Content-addressed cache of compile results.

An entry is keyed by everything that can change the compiler's answer (the source as
compiled, included files' contents, options, compiler identity) and holds the SPIR-V and
the diagnostics, so a hit reports exactly what a fresh compile would. Entries are written
atomically (temporary file + ``os.replace``); the directory is kept under a size bound by
evicting the least recently used entries.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from ..cachedir import ENV_VAR
from ..diagnostics import Diagnostic, InnerPosition, Severity
from ..fsutil import write_atomic
from ..rule_registry import rule

CACHE_PROBLEM = rule(
    "VKS914",
    summary="The compile cache directory could not be used; shaders were compiled afresh.",
    why="Results are still correct, but every run pays the full compile time.",
    bad="(a cache directory on a read-only file system)",
    good="export TOSA_VKSHADER_CACHE_DIR=/tmp/tosa-vkshader-cache   # or pass --no-cache",
)

FORMAT = 1
_SUFFIX = ".json"



@dataclass(frozen=True, slots=True)
class StoredDiagnostic:
    """A diagnostic without its pointers: ``target`` says which pointer to use."""

    code: str
    severity: str
    message: str
    hint: str | None
    target: str  # "code" | "entry"
    line: int | None
    column: int | None

    @classmethod
    def of(cls, diag: Diagnostic, entry_pointer: str) -> StoredDiagnostic:
        inner = diag.inner
        return cls(diag.code, diag.severity.label, diag.message, diag.hint,
                   "entry" if diag.pointer == entry_pointer else "code",
                   inner.line if inner else None, inner.column if inner else None)

    def diagnostic(self, code_pointer: str, entry_pointer: str) -> Diagnostic:
        inner = InnerPosition(self.line, self.column) \
            if self.line is not None and self.column is not None else None
        return Diagnostic(self.code, Severity.parse(self.severity), self.message,
                          entry_pointer if self.target == "entry" else code_pointer,
                          hint=self.hint, inner=inner)


@dataclass(frozen=True, slots=True)
class Entry:
    spirv: bytes | None
    diagnostics: tuple[StoredDiagnostic, ...]


class Cache:
    def __init__(self, root: Path, max_bytes: int) -> None:
        self.root = root / f"v{FORMAT}"
        self.max_bytes = max_bytes
        self.problem: str | None = None  # first failure, reported once per run
        self.wrote = False

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / (key + _SUFFIX)

    def get(self, key: str) -> Entry | None:
        path = self._path(key)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._note(exc)
            return None
        entry = _decode(raw)
        if entry is None:  # corrupt or from another format: drop it
            path.unlink(missing_ok=True)
            return None
        try:
            os.utime(path)  # least recently *used* eviction
        except OSError:
            pass
        return entry

    def put(self, key: str, entry: Entry) -> None:
        path = self._path(key)
        data = json.dumps({
            "format": FORMAT,
            "spirv": base64.b64encode(entry.spirv).decode() if entry.spirv is not None else None,
            "diagnostics": [asdict(d) for d in entry.diagnostics],
        }).encode()
        if self._write(path, data):
            self.wrote = True

    def _write(self, path: Path, data: bytes) -> bool:
        """Atomically replace ``path`` with ``data``: a reader sees the old or the new file."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, data, durable=False)
        except OSError as exc:
            self._note(exc)
            return False
        return True

    # -- the compiler version memo: binary path/size/mtime -> `glslc --version` text ----
    def load_versions(self) -> dict[str, str]:
        try:
            data = json.loads((self.root / "compilers.json").read_bytes())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}

    def save_versions(self, versions: dict[str, str]) -> None:
        self._write(self.root / "compilers.json", json.dumps(versions).encode())

    def evict(self) -> None:
        """Remove least recently used entries until the cache is at most 80% of its bound."""
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

    def problem_diagnostic(self, pointer: str) -> Diagnostic | None:
        if self.problem is None:
            return None
        return CACHE_PROBLEM.at(pointer, f"the compile cache at {self.root} is unusable: "
                                         f"{self.problem}",
                                hint=f"set {ENV_VAR} to a writable directory or use --no-cache")


def _decode(raw: bytes) -> Entry | None:
    try:
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        spirv = data["spirv"]
        diags = tuple(StoredDiagnostic(**d) for d in data["diagnostics"])
        for diag in diags:
            Severity.parse(diag.severity)
        return Entry(base64.b64decode(spirv, validate=True) if spirv is not None else None,
                     diags)
    except (ValueError, KeyError, TypeError, binascii.Error):
        return None

