"""The web linter: an ASGI app (``create_app``) with a JSON API and a playground page.

Needs the ``web`` extra (``pip install tosa-vkshader[web]``).
"""

from .app import create_app
from .options import Limits

__all__ = ["Limits", "create_app"]
