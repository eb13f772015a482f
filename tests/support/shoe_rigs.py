"""A shoe and a station link joined for tests, for any backend of `BACKENDS`.

A backend with a simulator runs the real driver against it through a real
pseudo-terminal; the virtual shoe needs no port.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from drivers.shoe import (
    BACKENDS,
    CardDrawn,
    CardUnread,
    EventRefused,
    ShoeEvent,
    ShoeLink,
    ShoeOnline,
    open_shoe,
)
from drivers.shoe.backends import ShoeSimulator
from drivers.shoe.shuffled_shoe import shuffled_shoe
from drivers.shoe.virtual import VirtualShoeLink

WAIT_S = 10.0  # a guard against hanging, never a measurement


def next_events(events: queue.Queue[ShoeEvent], count: int) -> list[ShoeEvent]:
    return [events.get(timeout=WAIT_S) for _ in range(count)]


def until(events: queue.Queue[ShoeEvent], kind: type) -> tuple[list[ShoeEvent], ShoeEvent]:
    """Events up to the first of `kind`, and that event."""
    before: list[ShoeEvent] = []
    while True:
        event = events.get(timeout=WAIT_S)
        if isinstance(event, kind):
            return before, event
        before.append(event)


class Rig(Protocol):
    link: ShoeLink
    events: queue.Queue[ShoeEvent]

    def draw(self, count: int, *, burn: bool = False) -> None: ...
    def draw_unread(self) -> None: ...
    def truth(self) -> list[ShoeEvent]: ...


class SimulatedRig:
    """The real driver against a backend's simulator, through a real pseudo-terminal."""

    def __init__(self, sim: ShoeSimulator, link: ShoeLink,
                 events: queue.Queue[ShoeEvent]) -> None:
        self.sim, self.link, self.events = sim, link, events

    def draw(self, count: int, *, burn: bool = False) -> None:
        self.sim.draw(count, burn=burn)

    def draw_unread(self) -> None:
        self.sim.draw_unread()

    def truth(self) -> list[ShoeEvent]:
        return list(self.sim.sent)


class VirtualRig:
    def __init__(self, link: VirtualShoeLink, events: queue.Queue[ShoeEvent]) -> None:
        self.link: ShoeLink = link
        self.events = events
        self._virtual = link
        self._cards = shuffled_shoe(1, seed=3)
        self._truth: list[ShoeEvent] = []

    def draw(self, count: int, *, burn: bool = False) -> None:
        for _ in range(count):
            card = self._cards.pop()
            self._truth.append(CardDrawn(card, burn, len(self._truth) + 1))
            self._virtual.draw(card, burn=burn)

    def draw_unread(self) -> None:
        self._truth.append(CardUnread("ambiguous", False, len(self._truth) + 1))
        self._virtual.draw_unread()

    def truth(self) -> list[ShoeEvent]:
        return list(self._truth)


@contextmanager
def rig(backend: str, *, refuse: Callable[[ShoeEvent], bool] | None = None,
        **link_options: object) -> Iterator[Rig]:
    """A rig for ``BACKENDS[backend]``: on its simulator when it has one, else
    (the virtual shoe) on the link itself, which the test plays. An event
    ``refuse`` is true of is not taken (`EventRefused`), as a stuck journal."""
    events: queue.Queue[ShoeEvent] = queue.Queue()
    entry = BACKENDS[backend]

    def sink(event: ShoeEvent) -> None:
        if refuse is not None and refuse(event):
            raise EventRefused("the test's consumer refuses it")
        events.put(event)

    if entry.simulator is None:
        with open_shoe(backend, port="in-process", on_event=sink, **link_options) as vlink:
            assert isinstance(vlink, VirtualShoeLink)
            assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
            yield VirtualRig(vlink, events)
        return
    # A shoe that heartbeats does so often: its silence is noticed quickly.
    heartbeat = {"heartbeat_interval": 0.2} if entry.can.heartbeat else {}
    with entry.simulator(seed=7, **heartbeat) as sim, \
            open_shoe(backend, port=sim.port, on_event=sink, **link_options) as link:
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        yield SimulatedRig(sim, link, events)
