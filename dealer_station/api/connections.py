"""How many connections the station holds, and how long one may say nothing.

uvicorn alone keeps every accepted connection until its client closes it: a
connection that never sends a request, or sends its headers a byte at a time
(slowloris), is never timed out, and ``limit_concurrency`` only answers 503 to
requests, it frees no file descriptor. About 1,100 such connections used up the
station's 1024 descriptors, and then the shoe's serial port could not be opened.

:class:`GuardedH11Protocol` is uvicorn's h11 protocol with two bounds:

- a deadline: a request's headers must be complete within ``request_seconds`` of
  the connection opening or of the last answer on it; trickling bytes do not
  extend it. A connection past it with no request running is closed.
- a cap: at most ``max_connections`` connections (HTTP and WebSocket). A new one
  over the cap closes the oldest connection that has no request running (an idle
  keep-alive, a half-open socket, a slowloris); when every one is busy, the new
  one is closed instead. A flood of idle sockets thus never starves a client that
  sends a request, and the descriptors in use stay under the cap plus uvicorn's
  accept backlog (api/server.py). WebSockets are not evicted (a feed is never
  idle), so they may take at most half the cap: an upgrade past that is closed,
  and sockets that never send their token (5 s) cannot crowd requests out.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol


class GuardedH11Protocol(H11Protocol):
    # Set per server by guarded_protocol(): uvicorn builds protocols from a class.
    max_connections: int = 0
    request_seconds: float = 0.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.opened = time.monotonic()
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._make_room()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:
            self._disarm()  # a request's headers are in: its answer is the app's now

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()  # the WebSocket protocol takes the connection over
        sockets = sum(1 for c in self.connections if not isinstance(c, GuardedH11Protocol))
        if sockets >= self.max_connections // 2:
            # A WebSocket is never evicted: half the cap stays for requests.
            self.transport.close()
            return
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        # Armed first: a pipelined request that uvicorn starts next disarms it.
        self._arm()
        super().on_response_complete()

    @property
    def idle(self) -> bool:
        """No request is being answered on this connection."""
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self.idle and not self.transport.is_closing():
            self.transport.close()

    def _make_room(self) -> None:
        if len(self.connections) <= self.max_connections:
            return
        idle = [
            c
            for c in self.connections
            if isinstance(c, GuardedH11Protocol)
            and c is not self
            and c.idle
            and not c.transport.is_closing()
        ]
        victim = min(idle, key=lambda c: c.opened) if idle else self
        victim.transport.close()
        # Counted as gone now, not when the loop gets round to connection_lost.
        self.connections.discard(victim)


def guarded_protocol(max_connections: int, request_seconds: float) -> type[GuardedH11Protocol]:
    return type(
        "StationH11Protocol",
        (GuardedH11Protocol,),
        {"max_connections": max_connections, "request_seconds": request_seconds},
    )
