"""The server put together: the session (documents and checks) and the requests about a
place in a document."""

from __future__ import annotations

from . import features
from .server import Session


def serve() -> None:
    """Serve stdin/stdout until the client says exit."""
    session = Session()
    features.register(session)
    session.run()
