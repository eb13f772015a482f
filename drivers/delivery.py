"""Handing a device's events to the station: the sink, refusals, offline said once.

Every link (the shoe's, the wheel sensor's) posts its typed events to a sink: a
callable, run in the link's thread, or a `queue.Queue`. A callable that raises
has not taken the event; it raises `EventRefused` (a subclass of each device's
own) to say so without a traceback in the log. The device's offline event is
handed over once per outage however often the link notices it again, until the
online event that ends the outage.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from drivers.errors import DriverError

log = logging.getLogger(__name__)

E = TypeVar("E")

EventSink = Callable[[E], object] | queue.Queue[E]


class EventRefused(DriverError):
    """Raised by an event sink that did not take the event (its store is stuck)."""


class Delivery(Generic[E]):
    """The sink of one link, with the link's offline and online event classes."""

    def __init__(self, on_event: EventSink[E], *, device: str,
                 offline: type[E], online: type[E]) -> None:
        self._sink: Callable[[E], object] = (
            on_event.put if isinstance(on_event, queue.Queue) else on_event
        )
        self._device = device
        self._offline = offline
        self._online = online
        self._offline_reported = False

    def deliver(self, events: Sequence[E]) -> int:
        """Hand `events` over in order; the number taken, up to the first refused."""
        for taken, event in enumerate(events):
            if isinstance(event, self._offline) and self._offline_reported:
                continue
            try:
                self._sink(event)
            except EventRefused as refusal:
                log.warning("%s event consumer did not take a %s: %s",
                            self._device, type(event).__name__, refusal)
                return taken
            except Exception:
                # A failing consumer must not stop the link's thread: the next
                # event would be read by nobody and the link would look healthy.
                # Named, not shown: the event may be a face-down card.
                log.exception("%s event consumer failed on a %s",
                              self._device, type(event).__name__)
                return taken
            if isinstance(event, self._offline):
                self._offline_reported = True
            elif isinstance(event, self._online):
                self._offline_reported = False
        return len(events)
