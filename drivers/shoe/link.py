"""`ShoeLink`: the one interface the station runtime uses, whatever the shoe.

    with open_shoe("framed", port="/dev/dealer-shoe", on_event=queue.put) as shoe:
        shoe.set_indicator(Indicator.GREEN)
        ...

A link runs in its own thread from `start()` (or `with`) to `close()` and posts
typed events (`drivers.shoe.events`) to `on_event`: a callable or a
`queue.Queue`. The callable runs in the link's thread; an asyncio runtime passes
``lambda e: loop.call_soon_threadsafe(q.put_nowait, e)``. Events arrive in the
order the shoe produced them, each card exactly once. A callable that raises
has not taken the event: the framed shoe is not acknowledged for it and sends it
again, after which the callable sees it again (and nothing after it before it);
it raises `EventRefused` to say so without a traceback in the log. The Bee-Tek
shoe never sends anything again, so an event it raised on is lost. `ShoeOnline` and
`ShoeOffline` alternate; a link that cannot open its port at start reports
`ShoeOffline` once and keeps trying.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from types import TracebackType
from typing import Self

from drivers import delivery
from drivers.shoe.errors import ShoeError
from drivers.shoe.events import ShoeEvent, ShoeOffline, ShoeOnline
from drivers.shoe.session import UnsupportedCommand
from firmware_proto import Indicator

EventSink = delivery.EventSink[ShoeEvent]


class EventRefused(ShoeError, delivery.EventRefused):
    """Raised by an event sink that did not take the event (its store is stuck)."""


class ShoeLink(ABC):
    def __init__(self, on_event: EventSink) -> None:
        self._delivery = delivery.Delivery[ShoeEvent](on_event, device="shoe",
                                                       offline=ShoeOffline, online=ShoeOnline)

    @abstractmethod
    def start(self) -> None:
        """Begin talking to the shoe; returns at once."""

    @abstractmethod
    def close(self) -> None:
        """Stop, release the port, and wait for the link's thread to end."""

    @property
    def supports_indicator(self) -> bool:
        return False

    def set_indicator(self, colour: Indicator) -> None:
        """Green: a card may be drawn; red: stop. Kept and re-sent after reconnection.

        Returns without waiting on the port: the link's thread writes it, so an
        event loop may call it. A colour asked for before `close()` is sent.

        Raises `UnsupportedCommand` if the shoe has no indicator (`supports_indicator`).
        """
        raise UnsupportedCommand(f"{type(self).__name__} has no indicator")

    @abstractmethod
    def counters(self) -> dict[str, int]:
        """Health counters: bytes discarded, retransmissions seen, reconnections..."""

    def _deliver(self, events: Sequence[ShoeEvent]) -> int:
        """Hand `events` over in order; the number taken, up to the first refused."""
        return self._delivery.deliver(events)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
