"""An in-process shoe with no port and no thread, for the runtime's tests.

The test plays the croupier: ``shoe.draw("AS")`` delivers `CardDrawn("AS")` to
the sink at once, as a real link would from its thread.
"""

from __future__ import annotations

from drivers.shoe.events import (
    CardDrawn,
    CardUnread,
    ShoeAlarm,
    ShoeOffline,
    ShoeOnline,
    ShoeState,
    ShoeStateName,
)
from drivers.shoe.link import EventSink, ShoeLink
from firmware_proto import Indicator
from firmware_proto.messages import RANKS, SUITS


class VirtualShoeLink(ShoeLink):
    def __init__(self, *, on_event: EventSink, port: str = "virtual") -> None:
        super().__init__(on_event)
        self.port = port
        self.indicator: Indicator | None = None
        self._index = 0
        self._running = False

    @property
    def supports_indicator(self) -> bool:
        return True

    def start(self) -> None:
        if not self._running:
            self._running = True
            self._deliver([ShoeOnline("virtual", vendor="virtual")])

    def close(self) -> None:
        if self._running:
            self._running = False
            self._deliver([ShoeOffline("link closed")])

    def set_indicator(self, colour: Indicator) -> None:
        self.indicator = colour

    def counters(self) -> dict[str, int]:
        return {"cards": self._index}

    def draw(self, card: str, *, burn: bool = False) -> None:
        if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
            raise ValueError(f"not a card: {card!r}")
        self._index += 1
        self._deliver([CardDrawn(card, burn, self._index)])

    def draw_unread(self, *, burn: bool = False, reason: str = "ambiguous") -> None:
        self._index += 1
        self._deliver([CardUnread(reason, burn, self._index)])

    def report_state(self, state: ShoeStateName) -> None:
        if state == "inserted":
            self._index = 0
        self._deliver([ShoeState(state)])

    def alarm(self, code: str, text: str) -> None:
        self._deliver([ShoeAlarm(code, text)])

    def unplug(self, reason: str = "unplugged") -> None:
        self._deliver([ShoeOffline(reason)])

    def replug(self) -> None:
        self._deliver([ShoeOnline("virtual", vendor="virtual")])
