"""The server put together: the session (documents and checks) and the requests about a
place in a document."""

from __future__ import annotations

from . import features
from .server import Session


def serve() -> int:
    """Serve stdin/stdout until the client says exit; the exit status (0 after a
    shutdown request, else 1)."""
    session = Session()
    features.register(session)
    return session.run()
