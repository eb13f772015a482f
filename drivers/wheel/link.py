"""`WheelSensorLink`: the wheel sensor on a serial port, as the station uses it.

    from drivers.wheel import open_wheel_sensor
    with open_wheel_sensor(port="/dev/dealer-wheel", on_event=events.put) as wheel:
        ...                       # WheelResult, WheelState, WheelWarning, ...

A link runs in its own thread from `start()` (or `with`) to `close()` and posts
typed events (`drivers.wheel.events`) to `on_event`: a callable or a
`queue.Queue`. The callable runs in the link's thread; an asyncio runtime
passes ``lambda e: loop.call_soon_threadsafe(q.put_nowait, e)``. Events come in
the order the wheel's lines came. The wheel never sends a line again: an event
the callable raised on (`EventRefused`, or any exception) is lost, and counted
(`counters()["not_taken"]`). `WheelOnline` and `WheelOffline` alternate; a link
that cannot open its port reports `WheelOffline` once and keeps trying, with
backoff, as after an unplug.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

from drivers import delivery
from drivers.port_link import RECONNECT_FIRST_S, RECONNECT_MAX_S, PortLink
from drivers.wheel.errors import WheelError
from drivers.wheel.events import WheelEvent, WheelOffline, WheelOnline
from drivers.wheel.session import SensorOutput, WheelSensorSession

EventSink = delivery.EventSink[WheelEvent]


class EventRefused(WheelError, delivery.EventRefused):
    """Raised by an event sink that did not take the event (its store is stuck)."""


class WheelSensorLink:
    def __init__(
        self,
        session: WheelSensorSession,
        *,
        port: str,
        on_event: EventSink,
        baudrate: int,
        reconnect_first: float = RECONNECT_FIRST_S,
        reconnect_max: float = RECONNECT_MAX_S,
    ) -> None:
        self.port = port
        self._delivery = delivery.Delivery[WheelEvent](
            on_event, device="wheel sensor", offline=WheelOffline, online=WheelOnline)
        self._port = PortLink[SensorOutput](
            session, port=port, baudrate=baudrate, name="wheel sensor",
            hand_over=lambda out: self._delivery.deliver(out.events),
            cannot_open=lambda reason: self._delivery.deliver([WheelOffline(reason)]),
            reconnect_first=reconnect_first, reconnect_max=reconnect_max)

    def start(self) -> None:
        """Begin reading the wheel; returns at once."""
        self._port.start()

    def close(self) -> None:
        """Stop, release the port, wait for the thread; reports `WheelOffline("link closed")`."""
        self._port.close()

    def counters(self) -> dict[str, int]:
        """Health counters: lines, rejected and refused lines, duplicates, bytes
        discarded, events not taken, connections, port failures."""
        return self._port.counters()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
