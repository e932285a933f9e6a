"""Finished answers of cheap checks, kept so that asking again costs a dictionary lookup.

A playground re-checks on every pause while someone types, a share link reloads the same
state, and many people check the shipped example: the same bytes arrive again and again.
The answer of a check that compiles nothing is a pure function of the route, the body's
Content-Type header, the exact body bytes, the query string and the tool version (the
server's options and limits are fixed for the app's life, and each app has its own
cache), so those are the key; two requests that differ by one byte in any of them never
share an answer.

Only 200 answers that no compiler made are kept (the routes decide, see lint_routes.py
and app.py): a problem (413, 422, 503, a time limit, a crashed worker) may depend on the
moment, and a compile answer may depend on the compile time limit or on a compiler that
failed, so those are made again every time (successful compiles are memoized by the
shader stage). An op with embedded SPIR-V is no compile: its answer, made by a worker the
first time, is kept unless it holds a diagnostic that depends on the moment
(:data:`UNSTABLE_CODES`: spirv-val missing, crashed or out of time).
The cache is bounded by entry count and by bytes (keys included), least recently used
out first; an answer larger than half the byte bound is not kept at all.

Below the answers, two smaller memories make new requests cheap: :class:`VettedShaders`
(embedded SPIR-V that a worker has read safely, checked in the event loop from then on)
and :class:`OpMemo` (the findings of an op checked before, placed again in a new
request's text).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

# What one entry costs beyond its bytes: the key tuple, the dict slot, the answer object.
ENTRY_OVERHEAD = 256

Key = tuple[str, str, bytes, str, bytes]  # route, content type, query, version, body


@dataclass(frozen=True, slots=True)
class Answer:
    """A finished response: status, raw ASGI headers, body."""

    status: int
    headers: tuple[tuple[bytes, bytes], ...]
    body: bytes

    def size(self) -> int:
        size = len(self.body)
        for name, value in self.headers:
            size += len(name) + len(value)
        return size


class AnswerCache:
    """An LRU map from :data:`Key` to :class:`Answer`, bounded by entries and bytes.

    Safe to share between threads (one lock; nothing slow happens under it), although
    the app only uses it from its event loop."""

    def __init__(self, max_entries: int, max_bytes: int) -> None:
        self.max_entries = max(0, max_entries)
        self.max_bytes = max(0, max_bytes)
        self._entries: OrderedDict[Key, tuple[Answer, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self.evictions = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Key) -> Answer | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[0]

    def put(self, key: Key, answer: Answer) -> bool:
        """Keep ``answer`` for ``key``, dropping the least recently used entries until
        both bounds hold. False when it is too large to keep (or the cache is off)."""
        route, content_type, query, version, body = key
        size = (ENTRY_OVERHEAD + len(route) + len(content_type) + len(query) + len(version)
                + len(body) + answer.size())
        if self.max_entries == 0 or size > self.max_bytes // 2:
            return False
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:  # two identical requests missed at once
                self.bytes -= old[1]
            self._entries[key] = (answer, size)
            self.bytes += size
            while len(self._entries) > self.max_entries or self.bytes > self.max_bytes:
                _, (_, freed) = self._entries.popitem(last=False)
                self.bytes -= freed
                self.evictions += 1
        return True

    def stats(self) -> dict[str, Any]:
        with self._lock:
            return {"entries": len(self._entries), "bytes": self.bytes,
                    "max_entries": self.max_entries, "max_bytes": self.max_bytes,
                    "hits": self.hits, "misses": self.misses, "evictions": self.evictions}


# Diagnostics that depend on the moment or the machine (a tool missing, crashed or out of
# time, a cache that could not be used): an answer holding one is never kept, and the
# shaders it was about are not vetted.
UNSTABLE_CODES = frozenset({"VKS910", "VKS911", "VKS912", "VKS913", "VKS914", "VKS915",
                            "VKS920", "VKS921", "VKS922", "VKS942"})


def is_stable(result: dict[str, Any]) -> bool:
    """Whether a check's answer (the CLI's JSON shape) holds no :data:`UNSTABLE_CODES`."""
    return not any(diag["code"] in UNSTABLE_CODES
                   for file in result.get("files", ()) for diag in file["diagnostics"])


class VettedShaders:
    """Embedded SPIR-V (the ``shader_code`` text) that a worker process has read,
    validated and reflected without crashing, running out of time or missing a tool.

    A module seen for the first time is checked in a worker (an untrusted binary must
    not stall or crash the server); once vetted, the same module is checked in the event
    loop with the other cheap checks, where the validator's verdict is a cache hit.
    Bounded by count and bytes, least recently used out first."""

    def __init__(self, max_entries: int = 1024, max_bytes: int = 16 * 1024 * 1024) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._codes: OrderedDict[str, None] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def __contains__(self, code: str) -> bool:
        with self._lock:
            if code not in self._codes:
                return False
            self._codes.move_to_end(code)
            return True

    def __len__(self) -> int:
        return len(self._codes)

    def add(self, codes: tuple[str, ...]) -> None:
        with self._lock:
            for code in codes:
                if code in self._codes or len(code) > self.max_bytes // 4:
                    continue
                self._codes[code] = None
                self._bytes += len(code)
            while self._codes and (len(self._codes) > self.max_entries
                                   or self._bytes > self.max_bytes):
                old, _ = self._codes.popitem(last=False)
                self._bytes -= len(old)


class OpMemo:
    """The diagnostics of ops checked before, by what decides them: the attribute object
    (as JSON, keys in their order), its pointer, the op around it (domain, types, whether
    it has an operator_name) and the options. A request that differs from an earlier one
    only outside the op (the operator's name, the request's shape, spacing) is then
    answered by placing the same findings in its own text, without running the rules
    again.

    Only ops without GLSL/HLSL code are kept (embedded SPIR-V is analysed by content and
    its verdicts are cached anyway), only answers without :data:`UNSTABLE_CODES` or a
    finding that quotes the operator's name, and only when every finding is placed by its
    JSON pointer (a finding about the op's operator_name is placed in the op's own text
    and is not moved). Bounded by entries, least recently used out first."""

    def __init__(self, max_entries: int = 4096) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[tuple, tuple[Any, list[Any]]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple, options: Any) -> list[Any] | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] is not options:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[1]

    def put(self, key: tuple, options: Any, diagnostics: list[Any]) -> None:
        with self._lock:
            self._entries[key] = (options, diagnostics)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def stats(self) -> dict[str, Any]:
        with self._lock:
            return {"entries": len(self._entries), "hits": self.hits, "misses": self.misses}
