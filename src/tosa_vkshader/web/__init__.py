"""The web linter: an ASGI app (``create_app``) with a JSON API and a playground page.

``create_app`` needs the ``web`` extra (``pip install '.[web]'`` in a checkout); the rest of
this package does not, so the rule registry can load it anywhere.
"""

from __future__ import annotations

from typing import Any

from .options import Limits


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module 'tosa_vkshader.web' has no attribute {name!r}")


__all__ = ["Limits", "create_app"]
