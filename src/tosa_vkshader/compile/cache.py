"""Content-addressed cache of compile results.

An entry is keyed by everything that can change the compiler's answer (the source as
compiled, included files' contents, options, compiler identity) and holds the SPIR-V and
the diagnostics, so a hit reports exactly what a fresh compile would. Entries are written
atomically and kept under a size bound by ``cachedir.EntryStore``, which the reports of
checked files (``result_cache``) share.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from ..cachedir import ENV_VAR, EntryStore
from ..diagnostics import Diagnostic, InnerPosition, Severity
from ..rule_registry import rule

CACHE_PROBLEM = rule(
    "VKS914",
    summary="The compile cache directory could not be used; shaders were compiled afresh.",
    why="Results are still correct, but every run pays the full compile time.",
    bad="(a cache directory on a read-only file system)",
    good="export TOSA_VKSHADER_CACHE_DIR=/tmp/tosa-vkshader-cache   # or pass --no-cache",
)

# 2: glslang's HLSL prefix scans are stored made exclusive (compile/hlsl.py)
FORMAT = 2



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


class Cache(EntryStore):
    """Compile results (SPIR-V and diagnostics) by key, with the compiler version memo."""

    def __init__(self, root: Path, max_bytes: int) -> None:
        super().__init__(root / f"v{FORMAT}", max_bytes)

    def get(self, key: str) -> Entry | None:
        raw = self.read(key)
        if raw is None:
            return None
        entry = _decode(raw)
        if entry is None:  # corrupt or from another format: drop it
            self.drop(key)
        return entry

    def put(self, key: str, entry: Entry) -> None:
        self.write(key, json.dumps({
            "format": FORMAT,
            "spirv": base64.b64encode(entry.spirv).decode() if entry.spirv is not None else None,
            "diagnostics": [asdict(d) for d in entry.diagnostics],
        }).encode())

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

