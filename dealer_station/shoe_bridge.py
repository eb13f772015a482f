"""From the shoe's link to a table's actor, and the indicator back.

The shoe link runs in its own thread and reports typed events; each becomes one
input of the table's queue (posted thread-safely onto the event loop). The
indicator follows what the table waits for: green when a card is due, red
otherwise.
"""

from __future__ import annotations

import asyncio
import logging

from dealer_station.actor import Alarm, Command, DeviceChange, TableActor
from dealer_station.config import ShoeConfig
from dealer_station.games.cards import CardError, parse_card
from dealer_station.games.events import BurnCard, CardUnread, DealCard
from drivers.shoe import (
    CardDrawn,
    Indicator,
    ShoeAlarm,
    ShoeEvent,
    ShoeLink,
    ShoeOffline,
    ShoeOnline,
    ShoeState,
    open_shoe,
)
from drivers.shoe import CardUnread as ShoeCardUnread

log = logging.getLogger(__name__)

SHOE_STATE_ADVICE = {
    "cut_card": "The cut card is out: finish this round, then shuffle.",
    "empty": "The shoe is empty: shuffle a new shoe.",
    "removed": "The shoe was removed from the scanner: put it back before drawing.",
    "inserted": "The shoe is back in the scanner.",
}


def to_input(event: ShoeEvent) -> Command | DeviceChange | Alarm:
    if isinstance(event, CardDrawn):
        try:
            card = parse_card(event.card)
        except CardError:
            # Journaled as refused (bad_card) with what the shoe really sent.
            kind = "burn" if event.burn else "card"
            return Command("shoe", {"type": kind, "card": event.card})
        return Command("shoe", BurnCard(card) if event.burn else DealCard(card))
    if isinstance(event, ShoeCardUnread):
        return Command("shoe", CardUnread())
    if isinstance(event, ShoeOnline):
        detail = " ".join(p for p in (event.vendor, event.model, event.firmware_version) if p)
        return DeviceChange("shoe", True, detail or event.protocol)
    if isinstance(event, ShoeOffline):
        return DeviceChange("shoe", False, event.reason)
    if isinstance(event, ShoeState):
        return Alarm(f"shoe_{event.state}", SHOE_STATE_ADVICE[event.state], "shoe")
    assert isinstance(event, ShoeAlarm)
    return Alarm(f"shoe_{event.code}", event.text, "shoe")


class ShoeBridge:
    def __init__(self, actor: TableActor, config: ShoeConfig) -> None:
        self.actor = actor
        self.config = config
        self.link: ShoeLink | None = None
        self.green: bool | None = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()

        def post(event: ShoeEvent) -> None:
            loop.call_soon_threadsafe(self.actor.submit, to_input(event))

        options: dict[str, float | int] = {}
        if self.config.baudrate:
            options["baudrate"] = self.config.baudrate
        if self.config.protocol == "framed":  # the ASCII shoe sends no heartbeat
            options["heartbeat_timeout"] = self.config.heartbeat_timeout
        self.link = open_shoe(self.config.protocol, port=self.config.port, on_event=post, **options)
        self.actor.listeners.append(self._follow_table)
        self.link.start()

    def close(self) -> None:
        if self.link is not None:
            self.link.close()

    def _follow_table(self, actor: TableActor) -> None:
        if self.link is None or not self.link.supports_indicator or actor.state is None:
            return
        step = actor.state.next_step()
        green = step.kind == "card"
        if green != self.green:
            self.green = green
            self.link.set_indicator(Indicator.GREEN if green else Indicator.RED)
