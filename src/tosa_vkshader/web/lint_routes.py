"""The lint routes (``POST /v1/check``, ``POST /v1/fix``) as plain ASGI apps.

These are the routes a playground calls on every pause in typing, so they skip what a
Starlette endpoint costs per request (a Request object, header parsing, a Response
object, one more exception wrapper): the headers are read in one pass over the scope,
the body straight from ``receive`` and the answer sent as two messages. Everything else
is Starlette's as before: routing (405 for other methods), CORS, and the exception
handlers that turn a raised :class:`Problem` into a problem document. The limits are the
same functions for every route: the media type (415), the body cap (413, refused from
Content-Length before reading when it says so), the body time limit (408), the JSON
depth cap (400).

A finished 200 answer that no compiler made is kept in the app's
:class:`~.cache.AnswerCache`; the same request again is answered from it before its body
is parsed.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from ..version import __version__
from .body import BodyWatch, Receive, read_body
from .cache import Answer, AnswerCache
from .envelope import FORM_MEDIA, JSON_MEDIA, TEXT_MEDIA, Body, lint_body, looks_like_json
from .options import Limits
from .problems import Problem

# The check or fix of a body: its answer (see json_answer), and whether it may be kept
# (False when a compiler made it).
Handler = Callable[[Body], Awaitable[tuple[Answer, bool]]]
Scope = dict[str, Any]
Send = Callable[[dict[str, Any]], Awaitable[None]]

JSON_CONTENT_TYPE = (b"content-type", b"application/json")
ACCEPTED = (JSON_MEDIA, TEXT_MEDIA)  # the lint routes read JSON and TOSA MLIR text


def media_of(content_type: str | None, accepted: tuple[str, ...]) -> str:
    """The body's media type, one of ``accepted`` (JSON also as ``+json``), else 415.
    No Content-Type counts as JSON. ``FORM_MEDIA`` (what ``curl -d`` sends unless told
    otherwise) is returned as it is: the body decides (:func:`body_media`)."""
    if content_type is None:
        content_type = JSON_MEDIA
    media = content_type.split(";")[0].strip().lower()
    if JSON_MEDIA in accepted and (media == JSON_MEDIA or media.endswith("+json")):
        return JSON_MEDIA
    if TEXT_MEDIA in accepted and media == TEXT_MEDIA:
        return TEXT_MEDIA
    if JSON_MEDIA in accepted and media == FORM_MEDIA:
        return FORM_MEDIA
    raise Problem("unsupported-media-type", f"the body is {content_type}; send "
                  + " or ".join(accepted))


def body_media(media: str, data: bytes, accepted: tuple[str, ...]) -> str:
    """``media`` once the body is read: a ``FORM_MEDIA`` body is JSON when it looks like
    JSON (``curl -d '{...}'`` without a Content-Type: no form of ours starts with a
    bracket), else 415, naming the header that was probably forgotten."""
    if media != FORM_MEDIA:
        return media
    if looks_like_json(data):
        return JSON_MEDIA
    text = " (-H 'content-type: text/plain' for TOSA MLIR)" if TEXT_MEDIA in accepted else ""
    raise Problem("unsupported-media-type", f"the body is {FORM_MEDIA} (what curl -d sends "
                  "without a Content-Type) and is not JSON; send " + " or ".join(accepted)
                  + text)


def _compact_encoder() -> Callable[[Any], str]:
    """Compact JSON, non-ASCII escaped, NaN refused: any string the input held (a lone
    surrogate from a ``\\ud800`` escape included) can be sent back. Where json has its C
    encoder, one is made once and kept (``JSONEncoder.encode`` makes a new one, and its
    table of containers seen, for every answer; an answer is a fresh tree, never a
    cycle)."""
    encoder = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":"),
                               check_circular=False)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encoder.encode
    chunks = make(None, encoder.default, json.encoder.encode_basestring_ascii, None, ":",
                  ",", False, False, False)
    return lambda content: "".join(chunks(content, 0))


_encode = _compact_encoder()


def render_json(content: Any) -> bytes:
    """Compact JSON with non-ASCII characters escaped (see _compact_encoder)."""
    return _encode(content).encode("ascii")


def json_answer(content: Any) -> Answer:
    body = render_json(content)
    return Answer(200, ((b"content-length", str(len(body)).encode("ascii")),
                        JSON_CONTENT_TYPE), body)


def _headers(scope: Scope) -> tuple[str | None, str | None]:
    """Content-Type and Content-Length, the first of each (as Starlette reads them)."""
    content_type = declared = None
    for name, value in scope["headers"]:
        if name == b"content-type" and content_type is None:
            content_type = value.decode("latin-1")
        elif name == b"content-length" and declared is None:
            declared = value.decode("latin-1")
    return content_type, declared


class LintRoute:
    """An ASGI app answering one lint route with ``handler``, through ``cache``."""

    def __init__(self, path: str, handler: Handler, limits: Limits, cache: AnswerCache,
                 watch: BodyWatch) -> None:
        self.path = path
        self.handler = handler
        self.limits = limits
        self.cache = cache
        self.watch = watch

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        content_type, declared = _headers(scope)
        media = media_of(content_type, ACCEPTED)
        data = await read_body(receive, declared, self.limits, self.watch)
        # The Content-Type as sent (not only the media type it names): conservative.
        key = (self.path, content_type or "", scope.get("query_string", b""), __version__,
               data)
        answer = self.cache.get(key)
        if answer is None:
            media = body_media(media, data, ACCEPTED)
            answer, keep = await self.handler(lint_body(data, media, self.limits))
            if keep:
                self.cache.put(key, answer)
        await send({"type": "http.response.start", "status": answer.status,
                    "headers": list(answer.headers)})
        await send({"type": "http.response.body", "body": answer.body})
