"""Errors as ``application/problem+json`` (RFC 9457): type, title, status, detail.

Handlers raise :class:`Problem`; the app turns it into a response (this module does not
need the web extra). ``type`` URIs point at
the section of docs/web.md that explains the problem.
"""

from __future__ import annotations

from typing import Any

PROBLEM_TYPE_BASE = "https://github.com/tosa-vkshader/tosa-vkshader/blob/main/docs/web.md#"
MEDIA_TYPE = "application/problem+json"

# slug -> (status, title)
PROBLEMS: dict[str, tuple[int, str]] = {
    "invalid-request": (400, "The request body is not a valid request"),
    "request-timeout": (408, "The request body did not arrive in time"),
    "not-found": (404, "No such resource"),
    "method-not-allowed": (405, "Method not allowed"),
    "body-too-large": (413, "The request body is too large"),
    "unsupported-media-type": (415, "The request body must be JSON"),
    "invalid-field": (422, "A request field has an unusable value"),
    "server-busy": (503, "Too many shader checks are waiting"),
    "check-timed-out": (504, "The shader check did not finish in time"),
    "worker-crashed": (502, "The shader check crashed its worker process"),
    "internal-error": (500, "Internal server error"),
}


class Problem(Exception):
    """An HTTP error that the client should see as a problem document."""

    def __init__(self, slug: str, detail: str, *, headers: dict[str, str] | None = None,
                 **extensions: Any) -> None:
        super().__init__(detail)
        self.status, self.title = PROBLEMS[slug]
        self.slug = slug
        self.detail = detail
        self.headers = headers or {}
        self.extensions = extensions

    def to_dict(self) -> dict[str, Any]:
        return {"type": PROBLEM_TYPE_BASE + self.slug, "title": self.title,
                "status": self.status, "detail": self.detail, **self.extensions}
