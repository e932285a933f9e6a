"""SHA-256 for cache keys, without loading OpenSSL.

``import hashlib`` loads OpenSSL's libcrypto to learn which algorithms it offers: 2-6 ms
of every warm check of a shader and of every ``run``, for one algorithm that CPython
also builds in. The built-in module has another name in each version; when neither is
there, hashlib's is used. The digests are SHA-256's whichever computes them.
"""

from __future__ import annotations

try:  # CPython 3.11
    from _sha256 import sha256
except ImportError:  # pragma: no cover - other interpreters
    try:  # CPython 3.12 and later
        from _sha2 import sha256  # type: ignore[no-redef]
    except ImportError:
        from hashlib import sha256  # type: ignore[no-redef,assignment]

__all__ = ["sha256"]
