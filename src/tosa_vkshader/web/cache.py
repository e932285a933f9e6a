"""Finished answers of cheap checks, kept so that asking again costs a dictionary lookup.

A playground re-checks on every pause while someone types, a share link reloads the same
state, and many people check the shipped example: the same bytes arrive again and again.
The answer of a check that compiles nothing is a pure function of the route, the body's
Content-Type header, the exact body bytes, the query string and the tool version (the
server's options and limits are fixed for the app's life, and each app has its own
cache), so those are the key; two requests that differ by one byte in any of them never
share an answer.

Only 200 answers that no compiler made are kept (the routes decide, see lint_routes.py):
a problem (413, 422, 503, a time limit, a crashed worker) may depend on the moment, and
a compile answer may depend on the compile time limit or on a compiler that failed, so
those are made again every time (successful compiles are memoized by the shader stage).
The cache is bounded by entry count and by bytes (keys included), least recently used
out first; an answer larger than half the byte bound is not kept at all.
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
