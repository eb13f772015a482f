"""The one gate every HTTP request passes before the app sees it (docs/api.md, "Limits").

An unauthenticated client must not cost the station more than a few kilobytes
and a few milliseconds of its event loop, the loop that also deals the cards and
pings systemd's watchdog. So, in this order and before any route runs:

1. the bearer token of a request to ``/tables``, ``/auth`` (and ``/metrics``
   unless the config opens it) is checked from the headers alone: a request
   without a valid one is answered 401 and its body is never read;
2. the body is read here, up to ``[http] max_body_bytes``: a ``Content-Length``
   over it is answered 413 at once, a chunked body is counted as it streams and
   cut at the limit, a body that trickles for more than ``body_seconds`` is 408;
3. a JSON body with ``NaN`` or an infinite number in it is 422 (JSON has no such
   numbers; Python's parser accepts them and they became a 500 further in).

Roles are still the routes' own business (``context.allow``: 403); this gate only
decides whether the request is worth reading. Every answer, the app's or the
gate's, gets the page headers of :mod:`dealer_station.api.page_policy`. A refusal
with a body left unread closes the connection, so the rest of it is not parsed.
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dealer_station.api.auth import Authority
from dealer_station.api.page_policy import page_headers
from dealer_station.config import HttpConfig

_TOKEN_PREFIXES = ("/tables/", "/auth/")


class _NotFinite(ValueError):
    pass


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses to inf
        raise _NotFinite(f"the number {text} is too large for JSON")
    return value


def _no_constant(text: str) -> Any:
    raise _NotFinite(f"{text} is not a JSON number")


def _refusal_of_numbers(body: bytes) -> str | None:
    """Why a JSON body's numbers are refused, or None. Other faults of the JSON are
    left to the app, which names them."""
    try:
        json.loads(body, parse_constant=_no_constant, parse_float=_finite)
    except _NotFinite as why:
        return f"{why}: JSON numbers must be finite (RFC 8259)"
    except ValueError:
        return None
    return None


class Guard:
    """ASGI middleware: token, body size, finite numbers, page headers."""

    def __init__(self, app: ASGIApp, authority: Authority, http: HttpConfig) -> None:
        self.app = app
        self.authority = authority
        self.http = http

    def _needs_token(self, path: str) -> bool:
        if path == "/tables" or path.startswith(_TOKEN_PREFIXES):
            return True
        return path == "/metrics" and not self.http.metrics_open

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            # A WebSocket carries its token in its first message (api/live.py) and
            # its size limit is uvicorn's ws_max_size (api/server.py).
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        extra = page_headers(scope["path"], headers.get(b"host", b"").decode("latin-1"))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        if self._needs_token(scope["path"]) and not self._has_token(headers):
            await _answer(
                send_with_headers,
                401,
                "a valid bearer token is required",
                [(b"www-authenticate", b"Bearer")],
            )
            return
        # h11 has refused a Content-Length that is not a number (400) before this.
        length = headers.get(b"content-length")
        if length is not None and int(length) > self.http.max_body_bytes:
            await _answer(
                send_with_headers,
                413,
                f"the body is over the limit of {self.http.max_body_bytes} bytes",
            )
            return
        try:
            async with asyncio.timeout(self.http.body_seconds):
                body = await self._body(receive)
        except TimeoutError:
            await _answer(send_with_headers, 408, "the body did not arrive in time")
            return
        if body is None:
            await _answer(
                send_with_headers,
                413,
                f"the body is over the limit of {self.http.max_body_bytes} bytes",
            )
            return
        if body and b"json" in headers.get(b"content-type", b""):
            why = _refusal_of_numbers(body)
            if why is not None:
                await _answer(send_with_headers, 422, why, close=False)
                return

        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # http.disconnect, when the client goes
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send_with_headers)

    def _has_token(self, headers: dict[bytes, bytes]) -> bool:
        scheme, _, token = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return False
        return self.authority.principal(token.strip()) is not None

    async def _body(self, receive: Receive) -> bytes | None:
        """The whole body, or None as soon as it passes the limit."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.http.max_body_bytes:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


async def _answer(
    send: Send,
    status: int,
    detail: str,
    headers: list[tuple[bytes, bytes]] | None = None,
    close: bool = True,
) -> None:
    body = json.dumps({"detail": detail}).encode()
    start = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *(headers or []),
    ]
    if close:
        # The body may be unread: closing spares parsing the rest of it.
        start.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": start})
    await send({"type": "http.response.body", "body": body})
