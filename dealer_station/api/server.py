"""Serving the app with uvicorn inside the station's event loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Iterator
from typing import TYPE_CHECKING

import uvicorn

from dealer_station.api.app import create_app
from dealer_station.api.connections import guarded_protocol

if TYPE_CHECKING:
    # The station imports this package to serve it: no import cycle at run time.
    from dealer_station.station import Station

log = logging.getLogger(__name__)

# A request line and its headers: a console's are under 2 KiB.
MAX_HEADER_BYTES = 16 * 1024
ACCEPT_BACKLOG = 64


class _Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, listening: asyncio.Event | None) -> None:
        super().__init__(config)
        self.listening = listening

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and self.listening is not None:
            self.listening.set()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # The station owns SIGTERM and SIGINT and stops the HTTP server itself.
        yield


def urls(station: Station) -> dict[str, str]:
    """The console and overlay of every table, as a person would open them."""
    http = station.config.http
    host = "localhost" if http.host in ("0.0.0.0", "::", "127.0.0.1") else http.host
    base = f"http://{host}:{http.port}"
    out = {"api": f"{base}/docs"}
    for table in station.actors:
        out[f"{table} console"] = f"{base}/console/{table}"
        out[f"{table} overlay"] = f"{base}/overlay/{table}"
    return out


async def serve_http(
    station: Station, sock: socket.socket | None = None, listening: asyncio.Event | None = None
) -> None:
    """Serve until cancelled; then close connections and return. ``sock``: a
    socket already bound (tests bind port 0 and read the port back);
    ``listening`` is set once connections are taken."""
    http = station.config.http
    app = create_app(station)
    config = uvicorn.Config(
        app,
        host=http.host,
        port=http.port,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=2,
        # The bounds of docs/api.md "Limits"; the body's own are api/guard.py's.
        http=guarded_protocol(http.max_connections, http.request_seconds),
        ws="websockets-sansio",
        ws_max_size=http.max_ws_message_bytes,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        timeout_keep_alive=http.keep_alive_seconds,
        # The cap is kept by evicting idle connections (api/connections.py); this
        # one bounds the requests running at once, one per connection at most.
        limit_concurrency=http.max_connections + 1,
        # asyncio accepts up to this many connections in one go: it bounds the
        # descriptors a burst takes before the cap closes the surplus.
        backlog=ACCEPT_BACKLOG,
    )
    server = _Server(config, listening)
    for name, url in urls(station).items():
        log.info("%s: %s", name, url)
    serving = asyncio.create_task(server.serve(sockets=[sock] if sock else None))
    try:
        await asyncio.shield(serving)
    except SystemExit:
        # uvicorn exits the process when it cannot listen: say why instead.
        raise RuntimeError(f"the HTTP server could not listen on {http.host}:{http.port}") from None
    finally:
        server.should_exit = True
        with contextlib.suppress(SystemExit):
            await serving
        app.state.context.history.close()
