"""Errors as ``application/problem+json`` (RFC 9457): type, title, status, detail.

Handlers raise :class:`Problem`; the app turns it into a response (this module does not
need the web extra). ``type`` is a reference to the server's own documentation,
``/docs/problems#<slug>`` (served by every ``tosa-vkshader serve``, :func:`problems_html`),
resolved against the request's URL as RFC 9457 says: it never depends on a site that may
not exist.
"""

from __future__ import annotations

import html
from typing import Any

PROBLEMS_PATH = "/docs/problems"
PROBLEM_TYPE_BASE = PROBLEMS_PATH + "#"
MEDIA_TYPE = "application/problem+json"

# slug -> (status, title, what it means and what to do)
PROBLEMS: dict[str, tuple[int, str, str]] = {
    "invalid-request": (400, "The request body is not a valid request",
                        "The body is not JSON, not an object, or nests too deeply."),
    "request-timeout": (408, "The request body did not arrive in time",
                        "The body did not arrive within the server's --body-timeout "
                        "seconds."),
    "not-found": (404, "No such resource",
                  "No such path, or no such rule (/v1/rules/{code})."),
    "method-not-allowed": (405, "Method not allowed", "For example GET /v1/check."),
    "body-too-large": (413, "The request body is too large",
                       "The body is larger than the server's --max-body (the problem's "
                       "limit says how large it may be)."),
    "unsupported-media-type": (415, "The request body must be JSON",
                               "Send the body as application/json (or text/plain for "
                               "/v1/check and /v1/fix); curl's default "
                               "application/x-www-form-urlencoded is taken when the body "
                               "is JSON."),
    "invalid-field": (422, "A request field has an unusable value",
                      "A field is unknown, missing (none of attributes, op, text) or has "
                      "an unusable value; the problem's field names it."),
    "server-busy": (503, "Too many shader checks are waiting",
                    "Retry after the Retry-After seconds."),
    "run-in-progress": (429, "This client already has a run in progress",
                        "POST /v1/run (serve --allow-run): a client runs one op at a time; "
                        "retry after the Retry-After seconds."),
    "check-timed-out": (504, "The shader check did not finish in time",
                        "The shader check ran past the server's --timeout; its processes "
                        "were killed."),
    "worker-crashed": (502, "The shader check crashed its worker process",
                       "The worker process checking this request died; it has been "
                       "replaced."),
    "internal-error": (500, "Internal server error",
                       "A bug in the server; the traceback is in the server's log."),
}


def problems_html() -> bytes:
    """The page the problems' ``type`` references point into: one section per slug."""
    sections = "".join(
        f'<section id="{slug}"><h2>{slug}</h2><p><code>{status}</code> '
        f"{html.escape(title)}</p><p>{html.escape(meaning)}</p></section>\n"
        for slug, (status, title, meaning) in PROBLEMS.items())
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>tosa-vkshader: problems</title></head><body>\n"
            "<h1>Problems the web linter answers with</h1>\n<p>Errors are "
            "<code>application/problem+json</code> (RFC 9457); each one's "
            "<code>type</code> points at its section here.</p>\n"
            f"{sections}</body></html>\n").encode()


class Problem(Exception):
    """An HTTP error that the client should see as a problem document."""

    def __init__(self, slug: str, detail: str, *, headers: dict[str, str] | None = None,
                 **extensions: Any) -> None:
        super().__init__(detail)
        self.status, self.title, _meaning = PROBLEMS[slug]
        self.slug = slug
        self.detail = detail
        self.headers = headers or {}
        self.extensions = extensions

    def to_dict(self) -> dict[str, Any]:
        return {"type": PROBLEM_TYPE_BASE + self.slug, "title": self.title,
                "status": self.status, "detail": self.detail, **self.extensions}
