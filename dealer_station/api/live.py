"""``/tables/{table}/ws``: the live feed (dealer_station/api/feed.py).

A browser cannot put a header on a WebSocket, so the token comes as the first
message, ``{"token": "..."}``, within ``AUTH_SECONDS``; any role may read. A
missing or unknown token closes the socket with 4401, an unknown table with 4404.
A pit boss's PIN session closes its sockets with 4401 when it is logged out or
its time is up. A message over ``[http] max_ws_message_bytes`` closes the socket
(1009, uvicorn's ``ws_max_size``) before it is read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from asyncio import FIRST_COMPLETED

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from dealer_station.api.context import StationContext
from dealer_station.api.feed import HEARTBEAT_SECONDS

AUTH_SECONDS = 5.0
CLOSE_UNAUTHORIZED = 4401
CLOSE_NO_TABLE = 4404
CLOSE_TOO_SLOW = 4408

router = APIRouter()


async def _token(websocket: WebSocket) -> str | None:
    try:
        message = await asyncio.wait_for(websocket.receive_text(), AUTH_SECONDS)
        token = json.loads(message).get("token")
    except (TimeoutError, ValueError, AttributeError, WebSocketDisconnect):
        return None
    return token if isinstance(token, str) else None


@router.websocket("/tables/{table}/ws")
async def feed(websocket: WebSocket, table: str) -> None:
    ctx: StationContext = websocket.app.state.context
    await websocket.accept()
    table_feed = ctx.feeds.get(table)
    if table_feed is None:
        await websocket.close(CLOSE_NO_TABLE, f"no table {table!r}")
        return
    token = await _token(websocket)
    if token is None or ctx.authority.principal(token) is None:
        # The client may be gone already (a message over the size limit closed it).
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await websocket.close(CLOSE_UNAUTHORIZED, "a valid token is required")
        return
    client = table_feed.subscribe()
    # The client says nothing more; reading tells us when it has gone.
    reader = asyncio.create_task(_drain(websocket))
    # A pit boss's PIN session reads only while it lasts (LOCK, or its time up).
    ended = asyncio.create_task(ctx.authority.session_over(token))
    try:
        while not reader.done():
            if client.dropped:
                await websocket.close(CLOSE_TOO_SLOW, "fell behind: reconnect")
                return
            if ended.done():
                await websocket.close(CLOSE_UNAUTHORIZED, "the session has ended")
                return
            getter = asyncio.ensure_future(client.queue.get())
            await asyncio.wait(
                {getter, reader, ended}, timeout=HEARTBEAT_SECONDS, return_when=FIRST_COMPLETED
            )
            if getter.done():
                text = getter.result()
            else:
                getter.cancel()
                if reader.done() or ended.done():
                    continue
                text = table_feed.station_status()
            await websocket.send_text(text)
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client went while we were sending
    finally:
        table_feed.unsubscribe(client)
        for task in (reader, ended):
            task.cancel()
        await asyncio.gather(reader, ended, return_exceptions=True)


async def _drain(websocket: WebSocket) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await websocket.receive_text()
