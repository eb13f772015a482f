"""A shoe on a serial port: the shared port link (drivers/port_link.py) and the light.

`set_indicator`, which the station calls from its event loop, only leaves the
colour in a slot; the link's thread hands the latest colour to the session on
its next turn (within one tick), since a write may wait on a stalled line.
"""

from __future__ import annotations

import threading

from drivers.port_link import RECONNECT_FIRST_S, RECONNECT_MAX_S, PortLink
from drivers.shoe.events import ShoeOffline
from drivers.shoe.link import EventSink, ShoeLink
from drivers.shoe.session import SessionOutput, ShoeSession
from firmware_proto import Indicator


class SerialShoeLink(ShoeLink):
    """Runs a `ShoeSession` over any pyserial port or URL (`PortLink`). The
    session keeps its state across reopenings of the port, which is what lets
    the framed protocol resume without a gap or a repeat."""

    def __init__(
        self,
        session: ShoeSession,
        *,
        port: str,
        on_event: EventSink,
        baudrate: int,
        reconnect_first: float = RECONNECT_FIRST_S,
        reconnect_max: float = RECONNECT_MAX_S,
    ) -> None:
        super().__init__(on_event)
        self._session = session
        self._port = PortLink[SessionOutput](
            session, port=port, baudrate=baudrate, name="shoe",
            hand_over=lambda out: self._deliver(out.events),
            cannot_open=lambda reason: self._deliver([ShoeOffline(reason)]),
            each_turn=self._send_indicator,
            reconnect_first=reconnect_first, reconnect_max=reconnect_max)
        self.port = port
        # The latest colour asked for and not yet given to the session: only the
        # last matters, a colour overtaken before the thread's turn is never sent.
        self._indicator_due: Indicator | None = None
        self._indicator_lock = threading.Lock()

    def start(self) -> None:
        self._port.start()

    def close(self) -> None:
        self._port.close()

    @property
    def supports_indicator(self) -> bool:
        return self._session.supports_indicator

    def set_indicator(self, colour: Indicator) -> None:
        """Returns at once: the link's thread writes it (see the module's docstring)."""
        if not self._session.supports_indicator:
            super().set_indicator(colour)  # raises UnsupportedCommand, in the caller
        with self._indicator_lock:
            self._indicator_due = colour

    def counters(self) -> dict[str, int]:
        return self._port.counters()

    def _send_indicator(self, now: float) -> None:
        # Each turn of the link's thread, and once more before the port is let
        # go: a colour asked for just before close() (red, as the station stops)
        # goes out.
        with self._indicator_lock:
            colour, self._indicator_due = self._indicator_due, None
        if colour is not None:
            with self._port.lock:
                out = self._session.indicator(colour, now)
                self._port.write(out.tx)
