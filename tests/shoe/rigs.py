"""A shoe and a station link joined for tests, one rig per backend.

The framed and Bee-Tek rigs run the real driver against a simulator through a
real pseudo-terminal; the virtual rig needs no port.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from drivers.shoe import CardDrawn, CardUnread, ShoeEvent, ShoeLink, ShoeOnline, open_shoe
from drivers.shoe.beetek_simulator import BeeTekShoeSimulator
from drivers.shoe.shuffled_shoe import shuffled_shoe
from drivers.shoe.simulator import FramedShoeSimulator
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


class FramedRig:
    def __init__(self, sim: FramedShoeSimulator, link: ShoeLink,
                 events: queue.Queue[ShoeEvent]) -> None:
        self.sim, self.link, self.events = sim, link, events

    def draw(self, count: int, *, burn: bool = False) -> None:
        self.sim.draw(count, burn=burn)

    def draw_unread(self) -> None:
        self.sim.draw_unread()

    def truth(self) -> list[ShoeEvent]:
        return list(self.sim.sent)


class BeeTekRig:
    def __init__(self, sim: BeeTekShoeSimulator, link: ShoeLink,
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
def rig(backend: str, **link_options: object) -> Iterator[Rig]:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    if backend == "framed":
        with FramedShoeSimulator(seed=7, heartbeat_interval=0.2) as sim, \
                open_shoe("framed", port=sim.port, on_event=events, **link_options) as link:
            assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
            yield FramedRig(sim, link, events)
    elif backend == "beetek":
        with BeeTekShoeSimulator(seed=7) as bsim, \
                open_shoe("beetek", port=bsim.port, on_event=events, **link_options) as link:
            assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
            yield BeeTekRig(bsim, link, events)
    else:
        with open_shoe("virtual", port="virtual", on_event=events) as vlink:
            assert isinstance(vlink, VirtualShoeLink)
            assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
            yield VirtualRig(vlink, events)
