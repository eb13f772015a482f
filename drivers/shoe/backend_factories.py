"""Serial links for each wire protocol: a session plus the port settings it needs."""

from __future__ import annotations

from drivers.shoe.beetek_session import BEETEK_BAUDRATE, BeeTekSession
from drivers.shoe.framed_session import HEARTBEAT_TIMEOUT_S, FramedSession
from drivers.shoe.link import EventSink
from drivers.shoe.serial_link import RECONNECT_FIRST_S, RECONNECT_MAX_S, SerialShoeLink

FRAMED_BAUDRATE = 115200


def framed_link(
    *,
    port: str,
    on_event: EventSink,
    baudrate: int = FRAMED_BAUDRATE,
    heartbeat_timeout: float = HEARTBEAT_TIMEOUT_S,
    reconnect_first: float = RECONNECT_FIRST_S,
    reconnect_max: float = RECONNECT_MAX_S,
) -> SerialShoeLink:
    return SerialShoeLink(
        FramedSession(heartbeat_timeout=heartbeat_timeout),
        port=port, on_event=on_event, baudrate=baudrate,
        reconnect_first=reconnect_first, reconnect_max=reconnect_max,
    )


def beetek_link(
    *,
    port: str,
    on_event: EventSink,
    baudrate: int = BEETEK_BAUDRATE,
    reconnect_first: float = RECONNECT_FIRST_S,
    reconnect_max: float = RECONNECT_MAX_S,
) -> SerialShoeLink:
    return SerialShoeLink(
        BeeTekSession(), port=port, on_event=on_event, baudrate=baudrate,
        reconnect_first=reconnect_first, reconnect_max=reconnect_max,
    )
